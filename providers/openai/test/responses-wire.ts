/**
 * Responses API streams as OpenAI sends them: `event: <type>` + `data: {"type", "sequence_number", …}` frames,
 * blank-line separated, no `[DONE]`; the stream ends with `response.completed` (or `.incomplete` / `.failed`).
 */

export type OutputSpec =
  | { text: string; chunks?: string[]; id?: string }
  | { call: { callId: string; name: string; arguments: string; chunks?: string[]; id?: string } }

export interface Usage {
  input_tokens: number
  output_tokens: number
  /** Of `input_tokens`. */
  cached_tokens?: number
  /** Of `output_tokens`. */
  reasoning_tokens?: number
}

export const USAGE: Usage = { input_tokens: 42, output_tokens: 7 }

/** Numbers the frames of one stream, as the API does. */
export class ResponsesWire {
  #sequence = 0
  readonly id: string
  readonly model: string

  constructor(id = 'resp_1', model = 'gpt-test') {
    this.id = id
    this.model = model
  }

  frame(type: string, data: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.#sequence++, ...data })}\n\n`
  }

  response(status: string, output: unknown[], usage: Usage | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      id: this.id,
      object: 'response',
      created_at: 1_760_000_000,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: this.model,
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: false,
      temperature: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: usage && {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
      user: null,
      metadata: {},
      ...extra,
    }
  }

  created(): string[] {
    return [
      this.frame('response.created', { response: this.response('in_progress', [], null) }),
      this.frame('response.in_progress', { response: this.response('in_progress', [], null) }),
    ]
  }

  messageItem(id: string, text: string, status = 'completed'): Record<string, unknown> {
    return {
      id,
      type: 'message',
      status,
      role: 'assistant',
      content: status === 'in_progress' ? [] : [{ type: 'output_text', annotations: [], logprobs: [], text }],
    }
  }

  callItem(id: string, callId: string, name: string, args: string, status = 'completed'): Record<string, unknown> {
    return { id, type: 'function_call', status, arguments: args, call_id: callId, name }
  }

  /** All frames of one output item at `index`. */
  item(index: number, spec: OutputSpec): string[] {
    if ('text' in spec) {
      const id = spec.id ?? `msg_${index}`
      const part = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text })
      return [
        this.frame('response.output_item.added', { output_index: index, item: this.messageItem(id, '', 'in_progress') }),
        this.frame('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: part('') }),
        ...(spec.chunks ?? [spec.text]).map((delta) =>
          this.frame('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta, logprobs: [] }),
        ),
        this.frame('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text: spec.text, logprobs: [] }),
        this.frame('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part: part(spec.text) }),
        this.frame('response.output_item.done', { output_index: index, item: this.messageItem(id, spec.text) }),
      ]
    }
    const { callId, name, chunks } = spec.call
    const id = spec.call.id ?? `fc_${index}`
    return [
      this.frame('response.output_item.added', { output_index: index, item: this.callItem(id, callId, name, '', 'in_progress') }),
      ...(chunks ?? [spec.call.arguments]).map((delta) =>
        this.frame('response.function_call_arguments.delta', { item_id: id, output_index: index, delta }),
      ),
      this.frame('response.function_call_arguments.done', { item_id: id, output_index: index, name, arguments: spec.call.arguments }),
      this.frame('response.output_item.done', { output_index: index, item: this.callItem(id, callId, name, spec.call.arguments) }),
    ]
  }

  outputOf(specs: OutputSpec[]): unknown[] {
    return specs.map((spec, index) =>
      'text' in spec
        ? this.messageItem(spec.id ?? `msg_${index}`, spec.text)
        : this.callItem(spec.call.id ?? `fc_${index}`, spec.call.callId, spec.call.name, spec.call.arguments),
    )
  }

  completed(specs: OutputSpec[], usage: Usage = USAGE): string {
    return this.frame('response.completed', { response: this.response('completed', this.outputOf(specs), usage) })
  }
}

/** A whole successful stream: created, every item, completed. */
export function responsesStream(specs: OutputSpec[], usage: Usage = USAGE): string[] {
  const wire = new ResponsesWire()
  return [...wire.created(), ...specs.flatMap((spec, index) => wire.item(index, spec)), wire.completed(specs, usage)]
}

export const text = (value: string, chunks?: string[]): OutputSpec => ({ text: value, ...(chunks ? { chunks } : {}) })
export const call = (callId: string, name: string, args: unknown, chunks?: string[]): OutputSpec => ({
  call: { callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), ...(chunks ? { chunks } : {}) },
})
