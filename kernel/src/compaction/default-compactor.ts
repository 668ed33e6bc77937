import { type Message, textOf, userMessage } from '../messages.js'
import type { ModelRequest } from '../model.js'
import type { Compactor, SummarizeInput } from './compactor.js'
import { COMPACTION_PROMPT } from './summary-prompt.js'
import { messageChars, type TallyReading, tallyOf, usageOf } from './token-tally.js'

export interface CompactorOptions {
  /** The model's context window, tokens. Default 200,000. */
  contextWindow?: number
  /** Compact before a request whose estimated size passes this share of the window. Default 0.8. */
  threshold?: number
  /** At most this many tokens of what `retain` keeps stay beside the summary. Default 10% of the window. */
  keepTokens?: number
  /** Replaces `COMPACTION_PROMPT`. */
  prompt?: string
  /**
   * What stays beside the summary:
   * - `'tail'` (default): the conversation's end from the last user message, after the summary, when it fits
   *   `keepTokens`, else nothing;
   * - `'user-messages'`: Codex's shape (its `build_compacted_history`): the user's own messages (typed or steered;
   *   not earlier summaries, hook contexts or prompts), the newest first while they fit `keepTokens` (the one that
   *   crosses it cut in the middle to fit), in their order before the summary, and nothing after it. Codex's budget
   *   is 20,000 tokens;
   * - `'none'`: the summary alone.
   */
  retain?: 'tail' | 'user-messages' | 'none'
}

export const RETAIN_MODES: readonly NonNullable<CompactorOptions['retain']>[] = ['tail', 'user-messages', 'none']

/** Characters per token for estimates: providers' tokenizers average about 4 for English and code. */
const CHARS_PER_TOKEN = 4

/**
 * The kernel's compactor: a request's size is estimated from the last recorded usage (a response's input and output
 * tokens) plus what was added after it at 4 characters a token; the summary is the session's model's answer to
 * `COMPACTION_PROMPT`; what stays beside it is `retain`'s (by default the end from the last user message, when it fits
 * `keepTokens`).
 */
export function defaultCompactor(options: CompactorOptions = {}): Compactor {
  const contextWindow = options.contextWindow ?? 200_000
  const threshold = options.threshold ?? 0.8
  const keepTokens = options.keepTokens ?? Math.floor(contextWindow / 10)
  const prompt = options.prompt ?? COMPACTION_PROMPT
  const retain = options.retain ?? 'tail'
  return {
    shouldCompact: (request) => estimateTokens(request) > contextWindow * threshold,
    async summarize(input: SummarizeInput) {
      const ask = input.instructions ? `${prompt}\n\nThe user asks that the summary keep: ${input.instructions}` : prompt
      const response = await input.sample({
        ...(input.system === undefined ? {} : { system: input.system }),
        messages: [...input.messages, userMessage(ask)],
        tools: [...input.tools],
      })
      const summary = response.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('\n')
        .trim()
      if (summary === '') throw new Error('the model wrote no summary')
      return summary
    },
    keep(messages) {
      if (retain !== 'tail') return 0
      const start = messages.findLastIndex((message) => message.role === 'user')
      if (start <= 0) return 0
      const tail = messages.slice(start)
      return estimateMessagesTokens(tail) <= keepTokens ? tail.length : 0
    },
    prefix: (messages) => (retain === 'user-messages' ? recentUserMessages(messages, keepTokens) : []),
  }
}

/** A message the user wrote: typed or steered, not a summary, a hook's prompt or a plugin's context. */
const fromUser = (message: Message) => message.role === 'user' && (message.source.kind === 'user' || message.source.kind === 'steering')

/**
 * The user's messages, the newest first while they fit `budget` tokens; the one that crosses it is cut in the middle
 * to what is left (Codex: `truncate_text` with the remaining tokens), and older ones are dropped. In their order.
 */
function recentUserMessages(messages: readonly Message[], budget: number): Message[] {
  const selected: Message[] = []
  let remaining = budget
  for (let index = messages.length - 1; index >= 0 && remaining > 0; index--) {
    const message = messages[index] as Message
    if (!fromUser(message)) continue
    const tokens = estimateMessagesTokens([message])
    if (tokens <= remaining) {
      selected.push(message)
      remaining -= tokens
      continue
    }
    selected.push({ ...message, content: [{ type: 'text', text: cutToTokens(textOf(message), remaining) }] })
    break
  }
  return selected.reverse()
}

/** The text's two ends around `…N tokens truncated…`, the whole within `tokens` (by the 4-characters estimate). */
function cutToTokens(text: string, tokens: number): string {
  const chars = Array.from(text)
  const budget = Math.floor(tokens * CHARS_PER_TOKEN)
  const marker = (kept: number) => `…${Math.ceil((chars.length - kept) / CHARS_PER_TOKEN)} tokens truncated…`
  const kept = Math.max(0, budget - marker(0).length)
  const head = Math.ceil(kept / 2)
  const tail = kept - head
  return `${chars.slice(0, head).join('')}${marker(kept)}${tail === 0 ? '' : chars.slice(-tail).join('')}`
}

/**
 * The request's size in tokens: the last response's recorded usage, plus everything after it by characters. For a
 * session's own transcript (the native loop's check before each request) the count is kept as messages are added.
 */
export function estimateTokens(request: ModelRequest): number {
  const { messages } = request
  const { lastUsage, chars } = tallyOf(messages)?.read() ?? countFromLastUsage(messages)
  if (lastUsage === undefined)
    return ((request.system?.length ?? 0) + toolSpecChars(request.tools)) / CHARS_PER_TOKEN + chars / CHARS_PER_TOKEN
  const usage = usageOf(lastUsage) as { inputTokens?: number; outputTokens?: number }
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) + chars / CHARS_PER_TOKEN
}

function countFromLastUsage(messages: readonly Message[]): TallyReading {
  const last = messages.findLastIndex((message) => usageOf(message) !== undefined)
  let chars = 0
  for (let index = last + 1; index < messages.length; index++) chars += messageChars(messages[index] as Message)
  return { lastUsage: last < 0 ? undefined : messages[last], chars }
}

function estimateMessagesTokens(messages: readonly Message[]): number {
  let chars = 0
  for (const message of messages) chars += messageChars(message)
  return chars / CHARS_PER_TOKEN
}

/** The tool list's size in characters, once per list: the registry hands out the same array until a tool is added. */
const toolSpecSizes = new WeakMap<object, number>()
function toolSpecChars(tools: ModelRequest['tools']): number {
  let size = toolSpecSizes.get(tools)
  if (size === undefined) {
    size = JSON.stringify(tools).length
    toolSpecSizes.set(tools, size)
  }
  return size
}
