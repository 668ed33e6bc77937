import type { MessageReply, ToolCallReply } from './reply.js'
import { type RequestLike, toolCallReplies, toolsOf, userTexts } from './request-views.js'

/**
 * Directives: a test scripts the model from the prompt it gives the program under test (the real `claude` or `codex`
 * in between), in the user text of the conversation (`<system-reminder>`s removed):
 *
 * - `[[tool:NAME:JSON]]` (or `[[call:NAME:JSON]]`): one tool call of NAME with the input JSON;
 * - `[[tools:[{"name":…,"input":{…}},…]]]` (or `[[calls:…]]`, `arguments` for `input`): several calls in one reply;
 * - `[[shell:CMD]]`: a call of the shell tool the request offers (`exec_command`, `shell`, `mcp__host__shell` or
 *   `Bash`, in that order), running CMD; `[[shell:!CMD]]` asks to run it outside the sandbox;
 * - `[[stream:N:MS]]`: the final text in N deltas, MS apart;
 * - `[[slow:MS]]`: hold every reply MS (see `MessageReply.delayMs`).
 *
 * The tool directives of the whole conversation, in order, are the script: the reply is directive k + 1, where k is the
 * number of the model's earlier replies that made calls; after the last one, the text `FINAL reply to request #N`. A
 * request that offers no tools (a side request) gets `side reply #N`, whatever the directives.
 */
const DIRECTIVE = /\[\[(slow|tool|tools|call|calls|shell|stream):([\s\S]*?)\]\](?!\])/g

/** Shell tools, in the order `[[shell:…]]` prefers them, and how each takes its command. */
const SHELL_TOOLS: { name: string; input: (command: string, escalate: boolean) => Record<string, unknown> }[] = [
  { name: 'exec_command', input: (cmd, escalate) => ({ cmd, yield_time_ms: 10_000, ...(escalate ? ESCALATION : {}) }) },
  { name: 'shell', input: (command, escalate) => ({ command, ...(escalate ? ESCALATION : {}) }) },
  { name: 'mcp__host__shell', input: (command, escalate) => ({ command, ...(escalate ? ESCALATION : {}) }) },
  { name: 'Bash', input: (command, escalate) => ({ command, ...(escalate ? { dangerouslyDisableSandbox: true } : {}) }) },
]
const ESCALATION = { sandbox_permissions: 'require_escalated', justification: 'asked by the test' }

interface Directives {
  calls: ToolCallReply[][]
  stream: { deltas: number; ms: number } | undefined
  slowMs: number
}

function parseJson(directive: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`the directive ${directive} does not hold valid JSON: ${(error as Error).message}`)
  }
}

function readDirectives(texts: string[], offered: string[]): Directives {
  const found: Directives = { calls: [], stream: undefined, slowMs: 0 }
  for (const text of texts) {
    for (const [directive, kind = '', arg = ''] of text.matchAll(DIRECTIVE)) {
      if (kind === 'slow') found.slowMs = Number(arg)
      else if (kind === 'stream') {
        const [deltas = 1, ms = 0] = arg.split(':').map(Number)
        found.stream = { deltas, ms }
      } else if (kind === 'tools' || kind === 'calls') {
        const list = parseJson(directive, arg)
        if (!Array.isArray(list)) throw new Error(`the directive ${directive} needs a JSON list of {name, input} objects`)
        found.calls.push(
          list.map((call: { name: string; input?: unknown; arguments?: unknown }) => ({
            name: call.name,
            input: call.input ?? call.arguments ?? {},
          })),
        )
      } else if (kind === 'shell') {
        const escalate = arg.startsWith('!')
        const command = escalate ? arg.slice(1) : arg
        const tool = SHELL_TOOLS.find((candidate) => offered.includes(candidate.name)) ?? SHELL_TOOLS[1]!
        found.calls.push([{ name: tool.name, input: tool.input(command, escalate) }])
      } else {
        const colon = arg.indexOf(':')
        if (colon < 0) throw new Error(`the directive ${directive} needs NAME:JSON`)
        found.calls.push([{ name: arg.slice(0, colon), input: parseJson(directive, arg.slice(colon + 1)) }])
      }
    }
  }
  return found
}

/** The reply the directives of a request's conversation ask for (see the top of this file). */
export function directiveReply(request: RequestLike & { n: number }): MessageReply {
  const offered = toolsOf(request)
  if (offered.length === 0) return { text: `side reply #${request.n}` }
  const found = readDirectives(userTexts(request), offered)
  const pacing = found.slowMs > 0 ? { delayMs: found.slowMs } : {}
  const calls = found.calls[toolCallReplies(request)]
  if (calls) return { toolCalls: calls, ...pacing }
  const text = `FINAL reply to request #${request.n}`
  if (!found.stream) return { text, ...pacing }
  const { deltas, ms } = found.stream
  return {
    text: Array.from({ length: deltas }, (_, i) => `${text} [${i + 1}/${deltas}] `),
    ...(ms > 0 ? { chunkDelayMs: ms } : {}),
    ...pacing,
  }
}
