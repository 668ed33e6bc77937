import type { Message, ModelRequest, ToolSpec } from '@harness-kernel/kernel'
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions'
import type { Endpoint } from './endpoint.js'
import type { OpenAIModelOptions } from './options.js'
import { serializeToolArguments } from './tool-arguments.js'
import { toolParameters } from './tool-parameters.js'

/** A Chat Completions request. See `chatMessages` for where messages may move. */
export function chatRequest(request: ModelRequest, options: OpenAIModelOptions, endpoint: Endpoint): ChatCompletionCreateParamsStreaming {
  const maxTokensField = endpoint.isOpenAI ? 'max_completion_tokens' : 'max_tokens'
  return {
    model: options.model,
    messages: chatMessages(request, options.developerRole ?? 'system'),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(functionTool) }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxOutputTokens === undefined ? {} : { [maxTokensField]: options.maxOutputTokens }),
    ...(options.reasoning?.effort === undefined ? {} : { reasoning_effort: options.reasoning.effort }),
    stream: true,
    stream_options: { include_usage: true },
    ...options.extraBody,
  }
}

/**
 * The kernel's messages as chat messages, in order, but for one rule of the API: the `tool` messages answering an
 * assistant's `tool_calls` must follow it directly. A message placed between a call and its result (a Codex hook
 * context) moves to just after the last result of that assistant message; relative order is kept otherwise.
 */
export function chatMessages(request: ModelRequest, developerRole: 'system' | 'developer'): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = request.system === undefined ? [] : [{ role: 'system', content: request.system }]
  const pending = new Set<string>()
  let held: ChatCompletionMessageParam[] = []
  const release = () => {
    pending.clear()
    out.push(...held)
    held = []
  }
  for (const message of request.messages) {
    for (const mapped of mapMessage(message, developerRole)) {
      if (mapped.role === 'tool' && pending.has(mapped.tool_call_id)) {
        out.push(mapped)
        pending.delete(mapped.tool_call_id)
        if (pending.size === 0) release()
        continue
      }
      if (pending.size > 0 && mapped.role !== 'assistant') {
        held.push(mapped)
        continue
      }
      release()
      out.push(mapped)
      if (mapped.role === 'assistant') for (const call of mapped.tool_calls ?? []) pending.add(call.id)
    }
  }
  release()
  return out
}

function mapMessage(message: Message, developerRole: 'system' | 'developer'): ChatCompletionMessageParam[] {
  const texts: string[] = []
  const calls: ChatCompletionMessageFunctionToolCall[] = []
  const results: ChatCompletionMessageParam[] = []
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') texts.push(block.text)
    } else if (block.type === 'tool_call') {
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: serializeToolArguments(block.input) } })
    } else {
      results.push({ role: 'tool', tool_call_id: block.callId, content: block.output })
    }
  }
  // Compatible servers (DeepSeek, older Ollama and vLLM) accept string content only; text blocks join with newlines.
  const text = texts.join('\n')
  const mapped: ChatCompletionMessageParam[] = []
  if (message.role === 'assistant') {
    if (texts.length > 0 || calls.length > 0) {
      mapped.push({ role: 'assistant', content: texts.length > 0 ? text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) })
    }
  } else if (texts.length > 0) {
    mapped.push(message.role === 'user' ? { role: 'user', content: text } : { role: developerRole, content: text })
  }
  return [...mapped, ...results]
}

function functionTool(tool: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: toolParameters(tool) } }
}
