import type { ModelProvider } from '@harness-kernel/kernel'
import type { PromptHandler } from '../types.js'
import { type HandlerRunOutcome, type HandlerRunSpec, outcomeOf } from './handler-run.js'
import { payloadJsonOf } from './payload-json.js'
import { promptHookRequest } from './prompt-request.js'
import { parsePromptVerdict } from './prompt-verdict.js'
import { timeoutSignal, timeoutText, untilAborted } from './timeout-signal.js'

/** Claude Code's default for prompt handlers; used when the caller passes no positive timeout. */
export const PROMPT_HOOK_TIMEOUT_MS = 30_000

const QUOTED_ANSWER_CHARS = 200

/** Asks the model to judge the hook and reads its `{ok, reason}` answer. Failures are non-blocking errors; never throws. */
export async function runPromptHandler(
  model: ModelProvider | undefined,
  handler: PromptHandler,
  spec: HandlerRunSpec,
): Promise<HandlerRunOutcome> {
  const started = performance.now()
  const timeoutMs = Number.isFinite(spec.timeoutMs) && spec.timeoutMs > 0 ? spec.timeoutMs : PROMPT_HOOK_TIMEOUT_MS
  const finish = outcomeOf('prompt', started)
  if (model === undefined) return finish({ error: 'prompt hooks need a model provider' })
  const deadline = timeoutSignal(timeoutMs, spec.signal)
  if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
  let answer: string
  try {
    const request = promptHookRequest(handler, payloadJsonOf(spec.stdin))
    const response = await untilAborted(
      model.generate(request, { signal: deadline.signal, attempt: 1, sessionId: '', turnId: '', step: 0 }),
      deadline.signal,
    )
    answer = response.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
  } catch (error) {
    if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
    if (deadline.timedOut()) return finish({ timedOut: true, error: timeoutText(timeoutMs) })
    return finish({ error: `model error: ${error instanceof Error ? error.message : String(error)}` })
  }
  const verdict = parsePromptVerdict(answer)
  if (verdict === undefined) {
    return finish({ stdout: answer, error: `prompt hook answered with invalid JSON: ${answer.slice(0, QUOTED_ANSWER_CHARS)}` })
  }
  return finish({ exitCode: 0, stdout: answer, verdict })
}
