import type { Attributes } from '@opentelemetry/api'
import { GEN_AI } from './attribute-names.js'
import type { ResponseMeta } from './response-meta.js'
import type { TraceScope } from './trace-scope.js'

/** A response's tokens and cost in the metrics (`gen_ai.client.token.usage`, `harness.cost`); returns their attributes. */
export function countSpend(scope: TraceScope, meta: ResponseMeta, provider: string | undefined): Attributes {
  const metric: Attributes = { [GEN_AI.operationName]: 'chat' }
  if (provider !== undefined) metric[GEN_AI.providerName] = provider
  if (meta.model !== undefined) metric[GEN_AI.responseModel] = meta.model
  const instruments = scope.instruments
  if (instruments === undefined) return metric
  const { usage, costUsd } = meta
  if (usage?.inputTokens !== undefined) instruments.tokenUsage.record(usage.inputTokens, { ...metric, [GEN_AI.tokenType]: 'input' })
  if (usage?.outputTokens !== undefined) instruments.tokenUsage.record(usage.outputTokens, { ...metric, [GEN_AI.tokenType]: 'output' })
  if (costUsd !== undefined && costUsd > 0) instruments.cost.add(`${provider}\n${meta.model}`, costUsd, () => metric)
  return metric
}
