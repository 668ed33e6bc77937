import type { Message, ModelRequest, ToolSpec } from '@harness-kernel/kernel'
import type { ResponseCreateParamsStreaming, ResponseInputItem } from 'openai/resources/responses/responses'
import type { OpenAIModelOptions } from './options.js'
import { serializeToolArguments } from './tool-arguments.js'
import { toolParameters } from './tool-parameters.js'

/**
 * A Responses API request. Messages keep the kernel's order item for item: a `developer` message between a
 * `function_call` and its output (Codex puts hook contexts there) stays there, as the API accepts and Codex sends.
 */
export function responsesRequest(request: ModelRequest, options: OpenAIModelOptions): ResponseCreateParamsStreaming {
  const reasoning = options.reasoning
  return {
    model: options.model,
    ...(request.system === undefined ? {} : { instructions: request.system }),
    input: request.messages.flatMap(inputItems),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(functionTool), parallel_tool_calls: true }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxOutputTokens === undefined ? {} : { max_output_tokens: options.maxOutputTokens }),
    ...(reasoning === undefined || (reasoning.effort === undefined && reasoning.summary === undefined)
      ? {}
      : {
          reasoning: {
            ...(reasoning.effort === undefined ? {} : { effort: reasoning.effort }),
            ...(reasoning.summary === undefined ? {} : { summary: reasoning.summary }),
          },
        }),
    store: false,
    stream: true,
    ...options.extraBody,
  }
}

/** One message as input items: its texts as one message item (per run of texts), each call and result as its own item. */
function inputItems(message: Message): ResponseInputItem[] {
  const items: ResponseInputItem[] = []
  let texts: string[] = []
  const flush = () => {
    if (texts.length > 0) items.push(messageItem(message.role, texts))
    texts = []
  }
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') texts.push(block.text)
      continue
    }
    flush()
    if (block.type === 'tool_call') {
      items.push({ type: 'function_call', call_id: block.id, name: block.name, arguments: serializeToolArguments(block.input) })
    } else {
      items.push({ type: 'function_call_output', call_id: block.callId, output: block.output })
    }
  }
  flush()
  return items
}

function messageItem(role: Message['role'], texts: string[]): ResponseInputItem {
  if (role === 'assistant') {
    // A replayed answer is `output_text` (the API refuses `input_text` for assistant messages); with `store: false`
    // it carries no id, as Codex sends it.
    return {
      type: 'message',
      role: 'assistant',
      content: texts.map((text) => ({ type: 'output_text', text, annotations: [] })),
    } as unknown as ResponseInputItem
  }
  // `tool` messages only ever hold results; a stray text in one is model-visible context like a developer note.
  const inputRole = role === 'tool' ? 'developer' : role
  return { type: 'message', role: inputRole, content: texts.map((text) => ({ type: 'input_text', text })) }
}

function functionTool(tool: ToolSpec) {
  return { type: 'function' as const, name: tool.name, description: tool.description, parameters: toolParameters(tool), strict: false }
}
