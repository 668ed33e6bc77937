/**
 * Attribute and metric names. The `gen_ai.*` ones are the OpenTelemetry GenAI semantic conventions' (development
 * status, semantic-conventions 1.45): written out here rather than imported from the incubating entry point, which the
 * conventions' own guidance asks instrumentations to copy. The `harness.*` ones are this package's, for what the
 * conventions do not cover (hooks, steering, compaction, turn outcomes).
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  tokenType: 'gen_ai.token.type',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
} as const

export const GEN_AI_METRIC = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
} as const

export const HARNESS = {
  sessionId: 'harness.session.id',
  driver: 'harness.driver',
  nativeSessionId: 'harness.driver.native_session_id',
  forkedFrom: 'harness.session.forked_from',
  resumed: 'harness.session.resumed',
  endReason: 'harness.session.end_reason',
  turnId: 'harness.turn.id',
  turnNumber: 'harness.turn.number',
  turnStatus: 'harness.turn.status',
  turnReason: 'harness.turn.reason',
  step: 'harness.step',
  costUsd: 'harness.cost.usd',
  toolDecision: 'harness.tool.decision',
  toolOutcome: 'harness.tool.outcome',
  hookDialect: 'harness.hook.dialect',
  hookEvent: 'harness.hook.event',
  hookHandler: 'harness.hook.handler',
  hookSource: 'harness.hook.source',
  hookStatus: 'harness.hook.status',
  hookDecision: 'harness.hook.decision',
  hookExitCode: 'harness.hook.exit_code',
  hookTimedOut: 'harness.hook.timed_out',
  hookMode: 'harness.hook.execution_mode',
  hookCommand: 'harness.hook.command',
  steeringBoundary: 'harness.steering.boundary',
  steeringTransport: 'harness.steering.transport',
  steeringItems: 'harness.steering.items',
  steeringAccepted: 'harness.steering.accepted',
  steeringDropped: 'harness.steering.dropped',
  steeringOutcome: 'harness.steering.outcome',
  steeringReason: 'harness.steering.reason',
  compactionTrigger: 'harness.compaction.trigger',
  compactionKept: 'harness.compaction.kept_messages',
  compactionTokensBefore: 'harness.compaction.tokens_before',
  compactionSummary: 'harness.compaction.summary',
  subagentId: 'harness.subagent.id',
  subagentType: 'harness.subagent.type',
  subagentSessionId: 'harness.subagent.session_id',
} as const

export const HARNESS_METRIC = {
  toolCalls: 'harness.tool.calls',
  hookRuns: 'harness.hook.runs',
  steeringItems: 'harness.steering.items',
  turns: 'harness.turns',
  cost: 'harness.cost',
} as const
