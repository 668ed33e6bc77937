import { raceAbort, sleep } from './abort.js'
import { errorMessage } from './errors.js'
import type { ModelRetryOptions } from './kernel-options.js'
import { isRetryableModelError, type ModelCallOptions, type ModelProvider, type ModelRequest, type ModelResponse } from './model.js'

export interface ModelCallContext extends Omit<ModelCallOptions, 'attempt'> {
  retry: Required<ModelRetryOptions>
  onRetry(message: string): void
}

/** One logical model call: retryable failures are retried with backoff (at least the server's retry-after); boundaries never re-run. */
export async function callModel(model: ModelProvider, request: ModelRequest, context: ModelCallContext): Promise<ModelResponse> {
  const { retry, onRetry, signal, sessionId, turnId, step, onTextDelta } = context
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted()
    // Built field by field rather than with a rest and a spread: this runs once per step.
    const options: ModelCallOptions =
      onTextDelta === undefined ? { signal, sessionId, turnId, step, attempt } : { signal, sessionId, turnId, step, onTextDelta, attempt }
    try {
      return await raceAbort(model.generate(request, options), signal)
    } catch (error) {
      if (signal.aborted || !isRetryableModelError(error) || attempt >= retry.maxAttempts) throw error
      const backoff = Math.min(retry.initialDelayMs * 2 ** (attempt - 1), retry.maxDelayMs)
      const delay = Math.max(backoff, Math.min(error.retryAfterMs ?? 0, retry.maxRetryAfterMs))
      onRetry(`model ${model.id} failed (${errorMessage(error)}); retrying in ${delay} ms (attempt ${attempt + 1} of ${retry.maxAttempts})`)
      await sleep(delay, signal)
    }
  }
}
