import { resolve } from 'node:path'
import {
  type ContentBlock,
  type ModelCallOptions,
  ModelError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  sleep,
} from '@harness-kernel/kernel'
import { loadScript } from './load-script.js'
import { parseScript } from './parse-script.js'
import { RequestLog } from './request-log.js'
import { isErrorStep, type ScriptReplyStep, type ScriptStep } from './script-step.js'
import { textChunks } from './text-chunks.js'

export interface ScriptedModelOptions {
  /** A `.yaml`/`.yml`/`.json` file (relative paths resolve against `process.cwd()`) or the steps themselves. */
  script: string | ScriptStep[]
  /** Appends each request as one JSON line to this file (relative to `process.cwd()`); parent dirs are created. */
  recordTo?: string
  /** Keep each request in `model.requests` (default true). Does not affect `recordTo`. */
  record?: boolean
  /** The provider id (default `scripted`). */
  id?: string
  /** Emit `text` through `onTextDelta` word by word when the caller asks for deltas (default true). */
  textDeltas?: boolean
}

/** A `ModelProvider` that answers each `generate()` call with the next scripted step. */
export class ScriptedModelProvider implements ModelProvider {
  readonly id: string
  readonly #steps: readonly ScriptStep[]
  readonly #source: string
  readonly #requests: ModelRequest[] = []
  readonly #record: boolean
  readonly #log: RequestLog | undefined
  readonly #textDeltas: boolean
  #next = 0
  #calls = 0
  #callIds = 0

  constructor(options: ScriptedModelOptions) {
    const { script } = options
    this.#steps = typeof script === 'string' ? loadScript(script) : parseScript(script, 'script')
    this.#source = typeof script === 'string' ? script : 'the script array'
    this.id = options.id ?? 'scripted'
    this.#record = options.record ?? true
    this.#log = options.recordTo === undefined ? undefined : new RequestLog(resolve(process.cwd(), options.recordTo))
    this.#textDeltas = options.textDeltas ?? true
  }

  /** Every request received, in order, as it was at the time of the call (empty with `record: false`). */
  get requests(): readonly ModelRequest[] {
    return this.#requests
  }

  /** Steps not yet consumed. */
  get remaining(): number {
    return this.#steps.length - this.#next
  }

  /** `generate()` calls so far, including ones answered with an error or an exhausted script. */
  get calls(): number {
    return this.#calls
  }

  async generate(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    // An already-cancelled call never reaches the "model": no step consumed, nothing recorded.
    options.signal.throwIfAborted()
    const n = ++this.#calls
    if (this.#record || this.#log) {
      const copy = structuredClone(request)
      if (this.#record) this.#requests.push(copy)
      this.#log?.append(n, copy, options)
    }
    const step = this.#steps[this.#next]
    if (step === undefined) {
      throw new ModelError(
        `scripted model: script exhausted after ${plural(this.#steps.length, 'step')} (request ${n} has no scripted response); add a step to ${this.#source}`,
        { retryable: false },
      )
    }
    this.#next++
    if (isErrorStep(step)) throw new ModelError(step.error.message, { retryable: step.error.retryable, status: step.error.status })
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(step.delayMs, options.signal)
    const response = this.#respond(step)
    if (step.text && options.onTextDelta && this.#textDeltas) {
      for (const chunk of textChunks(step.text)) {
        options.onTextDelta(chunk)
        options.signal.throwIfAborted()
      }
    }
    return response
  }

  #respond(step: ScriptReplyStep): ModelResponse {
    const content: ContentBlock[] = []
    if (step.text) content.push({ type: 'text', text: step.text })
    const calls = step.tool_calls ?? []
    for (const call of calls) {
      // Cloned so a consumer mutating the input can't change the script.
      content.push({ type: 'tool_call', id: call.id ?? `call_${++this.#callIds}`, name: call.name, input: structuredClone(call.input) })
    }
    const response: ModelResponse = { content, stopReason: calls.length > 0 ? 'tool_use' : 'end_turn' }
    if (step.usage !== undefined) response.usage = { ...step.usage }
    if (step.id !== undefined) response.id = step.id
    return response
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
