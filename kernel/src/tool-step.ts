import type { Halt, PostToolDecision, PreToolDecision } from './decisions.js'
import type { ToolOutcome } from './driver/types.js'
import { errorMessage } from './errors.js'
import type { GuardedAction, GuardVerdict, SandboxConfinement } from './guardrails/types.js'
import type { ToolCallBlock } from './messages.js'
import type { SessionRuntime } from './session-runtime.js'
import type { StepPayload, ToolCall } from './session-types.js'
import { excerptText } from './text-excerpt.js'
import type { ToolOutput, ToolOutputStream } from './tool.js'

type CallOutcome = ToolOutcome

const INTERRUPTED: ToolOutput = { output: 'No result: the turn ended before this tool call completed.', isError: true }

/**
 * Runs a step's tool calls: consecutive parallel-safe calls together, others alone, in the model's
 * order. Results are recorded in the model's order, then every context, then the first halt wins.
 */
export async function runToolCalls(runtime: SessionRuntime, step: StepPayload, calls: ToolCallBlock[]): Promise<Halt | undefined> {
  const outcomes: (CallOutcome | undefined)[] = new Array(calls.length)
  try {
    for (const batch of batches(runtime, calls)) {
      if (step.signal.aborted) break
      if (batch.length === 1) {
        const index = batch[0] as number
        outcomes[index] = await runToolCall(runtime, step, calls[index] as ToolCallBlock)
        continue
      }
      const settled = await Promise.allSettled(
        batch.map(async (index) => {
          outcomes[index] = await runToolCall(runtime, step, calls[index]!)
        }),
      )
      const failure = settled.find((outcome) => outcome.status === 'rejected')
      if (failure) throw failure.reason
    }
  } finally {
    for (const [index, call] of calls.entries()) {
      const result = outcomes[index]?.result ?? INTERRUPTED
      runtime.append({
        type: 'tool/result',
        turnId: step.turn.id,
        step: step.step,
        callId: call.id,
        output: result.output,
        isError: result.isError,
      })
    }
  }
  for (const outcome of outcomes) for (const message of outcome?.context ?? []) runtime.recordMessage(step.turn.id, message)
  return outcomes.find((outcome) => outcome?.halt)?.halt
}

function batches(runtime: SessionRuntime, calls: ToolCallBlock[]): number[][] {
  const result: number[][] = []
  let parallel: number[] = []
  for (const [index, call] of calls.entries()) {
    if (runtime.tools.get(call.name)?.parallel) {
      parallel.push(index)
      continue
    }
    if (parallel.length > 0) result.push(parallel)
    parallel = []
    result.push([index])
  }
  if (parallel.length > 0) result.push(parallel)
  return result
}

/** One call through `tools/pre-execute` → guardrails → permission → execute → `tools/post-execute`; logs the call, not its result. */
export async function runToolCall(runtime: SessionRuntime, step: StepPayload, block: ToolCall): Promise<CallOutcome> {
  const call: ToolCall = { id: block.id, name: block.name, input: block.input }
  const payload = { ...step, call }
  const pre: PreToolDecision = await runtime.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)
  const context = [...(pre.context ?? [])]
  const guarded =
    pre.kind === 'deny'
      ? undefined
      : judgeCall(runtime, call.name, pre.kind === 'allow' && pre.input !== undefined ? pre.input : call.input)
  // Nothing asks (policy allowed it, the guardrails neither refuse nor ask): no permission request to wait for.
  const judged = guarded?.verdict.kind
  let verdict: Verdict =
    pre.kind === 'allow' && judged !== 'deny' && judged !== 'ask' ? { kind: 'allow' } : await permission(runtime, payload, pre, guarded)
  const logCall = (input: unknown, decision: string) =>
    runtime.append({ type: 'tool/call', turnId: step.turn.id, step: step.step, callId: call.id, name: call.name, input, decision })
  let sandboxed = guarded === undefined || guarded.verdict.kind === 'deny' || guarded.verdict.sandboxed
  // Refused by the guardrails alone, without asking anyone (a rule, `never`): Codex shows no item for such a call.
  let refusedByGuardrails = pre.kind !== 'deny' && guarded?.verdict.kind === 'deny'
  if (verdict.kind === 'allow' && verdict.input !== undefined) {
    // A permission hook's rewrite is judged again: its approval stands for it, a refusal by rule does not give way.
    const again = judgeCall(runtime, call.name, verdict.input)
    if (again?.verdict.kind === 'deny') {
      verdict = { kind: 'deny', reason: again.verdict.reason }
      refusedByGuardrails = true
    } else if (again !== undefined) sandboxed = again.verdict.sandboxed
  }
  if (verdict.kind === 'deny') {
    const halt = pre.kind === 'deny' ? pre.halt : verdict.halt
    logCall(call.input, halt ? 'deny-halt' : refusedByGuardrails ? 'deny-guardrails' : 'deny')
    return { result: { output: verdict.reason, isError: true }, context, halt }
  }
  // Interrupted while policy decided: the tool never starts, and no post-execute runs for it.
  if (step.signal.aborted) return { result: INTERRUPTED, context, halt: undefined }
  const rewritten = verdict.input ?? (pre.kind === 'allow' ? pre.input : undefined)
  const input = rewritten !== undefined ? rewritten : call.input
  logCall(input, rewritten !== undefined ? 'allow-rewritten' : 'allow')
  const confine = pre.kind === 'allow' || pre.kind === 'ask' ? pre.confine : undefined
  const result = capOutput(await execute(runtime, step, { ...call, input }, sandboxed, confine), runtime.options.maxToolOutputBytes)
  const post: PostToolDecision = await runtime.hooks.toolPostExecute.promise(
    { kind: 'accept' },
    { ...payload, call: { ...call, input }, result },
  )
  context.push(...(post.context ?? []))
  let final: ToolOutput = { output: result.output, isError: result.isError }
  if (post.kind === 'block') final = { output: post.feedback, isError: result.isError }
  else if (post.output !== undefined) final = { output: post.output, isError: result.isError }
  const halt = (pre.kind === 'allow' ? pre.halt : undefined) ?? (post.kind === 'accept' ? post.halt : undefined)
  return { result: final, context, halt }
}

/** No tool floods a model: what is over the limit keeps its two ends around a marker (`excerptText`). */
function capOutput(result: ToolOutput, maxBytes: number): ToolOutput {
  const half = Math.floor(maxBytes / 2)
  const output = excerptText(result.output, half, maxBytes - half)
  return output === result.output ? result : { ...result, output }
}

export type Verdict = { kind: 'allow'; input?: unknown } | { kind: 'deny'; reason: string; halt?: Halt }

/** What the guardrails make of a call, for a tool that says what it does (`guard`). */
export interface GuardedCall {
  action: GuardedAction
  verdict: GuardVerdict
}

/** The guardrails' verdict on a call; undefined for a tool that does not say what it does, or input it would refuse. */
function judgeCall(runtime: SessionRuntime, name: string, input: unknown): GuardedCall | undefined {
  const tool = runtime.tools.get(name)
  if (tool?.guard === undefined) return undefined
  const parsed = tool.inputSchema.safeParse(input)
  if (!parsed.success) return undefined
  let action: GuardedAction | undefined
  try {
    action = tool.guard(parsed.data, { cwd: runtime.session.cwd })
  } catch (error) {
    // A tool that cannot say what it would do does not run.
    const reason = `Tool "${name}" could not be checked against the sandbox policy: ${errorMessage(error)}`
    return { action: { kind: 'fileChange', paths: [], cwd: runtime.session.cwd }, verdict: { kind: 'deny', reason } }
  }
  return action === undefined ? undefined : { action, verdict: runtime.guardrails.judge(action) }
}

/**
 * A guardrails refusal stands; `ask` (from policy or from the guardrails) goes to `tools/permission-request`, then to
 * the approver; otherwise `allow` and `deny` stand.
 */
export async function permission(
  runtime: SessionRuntime,
  payload: StepPayload & { call: ToolCall },
  pre: PreToolDecision,
  guarded?: GuardedCall,
): Promise<Verdict> {
  if (pre.kind === 'deny') return pre
  const judged = guarded?.verdict
  if (judged?.kind === 'deny') return { kind: 'deny', reason: judged.reason }
  const guardAsks = judged?.kind === 'ask'
  if (pre.kind !== 'ask' && !guardAsks) return { kind: 'allow' }
  const reason = (pre.kind === 'ask' ? pre.reason : undefined) ?? (guardAsks ? judged.reason : undefined)
  const decided = await runtime.hooks.toolPermissionRequest.promise({ kind: 'undecided' }, { ...payload, reason })
  if (decided.kind !== 'undecided') return decided
  const answer = await runtime.approvals.request({
    session: payload.session,
    turnId: payload.turn.id,
    call: payload.call,
    reason,
    signal: payload.signal,
    ...(guarded === undefined ? {} : { action: guarded.action, sandboxed: judged?.kind === 'ask' ? judged.sandboxed : true }),
    ...(guardAsks && judged.proposedRule ? { proposedRule: judged.proposedRule } : {}),
    ...(guardAsks ? { cause: judged.cause } : {}),
  })
  try {
    decided.onAnswer?.(answer)
  } catch (error) {
    payload.session.notice('warning', `a tools/permission-request tap's onAnswer failed: ${errorMessage(error)}`, 'kernel')
  }
  if (answer.kind === 'deny') {
    const reason = decided.refusal ?? answer.reason
    return answer.interrupt
      ? { kind: 'deny', reason, halt: { reason: 'The turn was cancelled at an approval request.' } }
      : { kind: 'deny', reason }
  }
  if (guarded !== undefined && (answer.remember === 'session' || answer.rule !== undefined)) {
    runtime.guardrails.remember(guarded.action, answer.rule === undefined ? {} : { rule: answer.rule })
  }
  return { kind: 'allow' }
}

async function execute(
  runtime: SessionRuntime,
  step: StepPayload,
  call: ToolCall,
  sandboxed: boolean,
  confine: SandboxConfinement | undefined,
): Promise<ToolOutput> {
  const tool = runtime.tools.get(call.name)
  if (!tool) {
    const known = runtime.tools
      .list()
      .map((candidate) => candidate.name)
      .join(', ')
    return { output: `Unknown tool "${call.name}". Available tools: ${known || 'none'}.`, isError: true }
  }
  const parsed = tool.inputSchema.safeParse(call.input)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')
    return { output: `Invalid input for tool "${call.name}": ${issues}`, isError: true }
  }
  // Streamed output goes to `tools/output` only while something taps it.
  const output =
    runtime.hooks.toolOutput.taps.length > 0
      ? (stream: ToolOutputStream, text: string) => runtime.hooks.toolOutput.call({ ...step, call, stream, text })
      : undefined
  const guardrails = runtime.guardrails
  try {
    return await tool.execute(parsed.data, {
      session: step.session,
      cwd: step.session.cwd,
      callId: call.id,
      signal: step.signal,
      processRunner: guardrails.runner(sandboxed, runtime.processRunner, confine),
      sandbox: {
        policy: sandboxed ? guardrails.policy.sandbox : { type: 'dangerFullAccess' },
        writeFile: (path, content) => guardrails.writeFile(sandboxed, path, content, step.signal),
      },
      ...(output ? { output } : {}),
    })
  } catch (error) {
    if (step.signal.aborted) return INTERRUPTED
    return { output: `Tool "${call.name}" failed: ${errorMessage(error)}`, isError: true }
  }
}
