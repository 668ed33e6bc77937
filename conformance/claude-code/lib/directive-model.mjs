// The kernel side's model: a ModelProvider that answers with the same directive policy as
// shared/real-clients/claude-code/fake-server.mjs answers Claude Code, applied to the kernel's
// ModelRequest, and records every request it receives (one JSON line each).
//
// Policy (fake-server.mjs, "main loop" requests, i.e. requests that offer the shell tool, Claude's Bash):
//   * directives are read from the text blocks of every user message, in order, outside
//     <system-reminder> blocks: [[bash:CMD]], [[tool:NAME:JSON]], [[slow:MS]], and <<bash:CMD>>
//     outside [[...]];
//   * k = assistant messages in the history that hold a tool call; while k < number of tool
//     directives, reply with directive k+1 as a tool call with id `toolu_fake_<N>`;
//   * otherwise reply `FINAL reply to request #N`.
//   N is the 1-based number of the request (the fake server counts every request it gets).
//   A request without the shell tool gets `side-reply #N`.
// Claude's tool names map to the kernel's tools: Bash -> shell, Read -> read_file, Write -> write_file, Edit -> edit_file
// (whose `file_path` is the kernel tools' `path`, in the same place); a Bash input's `dangerouslyDisableSandbox: true`
// (the request to run outside Claude Code's sandbox) is the shell tool's `sandbox_permissions: "require_escalated"`
// (`false` is dropped: the shell tool's default).
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export const KERNEL_TOOL = { Bash: 'shell', Read: 'read_file', Write: 'write_file', Edit: 'edit_file' }
const FILE_TOOLS = ['Read', 'Write', 'Edit']

/**
 * A Claude tool input as the kernel tool's: `file_path` of the file tools becomes `path`, Bash's
 * `dangerouslyDisableSandbox: true` becomes `sandbox_permissions: "require_escalated"` (key order kept).
 */
export function kernelInput(name, input) {
  if (name === 'Bash' && input && typeof input === 'object' && 'dangerouslyDisableSandbox' in input)
    return Object.fromEntries(
      Object.entries(input).flatMap(([k, v]) =>
        k !== 'dangerouslyDisableSandbox' ? [[k, v]] : v === true ? [['sandbox_permissions', 'require_escalated']] : [],
      ),
    )
  if (!FILE_TOOLS.includes(name) || !input || typeof input !== 'object') return input
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k === 'file_path' ? 'path' : k, v]))
}

const stripReminders = (t) => t.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')

/** Text of a kernel message's text blocks, joined as the fake server joins Anthropic text blocks. */
function textOf(message) {
  return (message.content ?? [])
    .filter((b) => b?.type === 'text')
    .map((b) => b.text)
    .join('\n')
}

/** The tool directives and the `slow` value of a conversation (kernel messages). */
export function directives(messages) {
  const tools = []
  let slow = 0
  for (const m of messages) {
    if (m.role !== 'user') continue
    const t0 = stripReminders(textOf(m))
    const t = `${t0}\n${t0.replace(/\[\[[\s\S]*?\]\](?!\])/g, '').replace(/<<bash:([\s\S]*?)>>/g, '[[bash:$1]]')}`
    const re = /\[\[(bash|slow|tool):([\s\S]*?)\]\](?!\])/g
    for (let x = re.exec(t); x; x = re.exec(t)) {
      if (x[1] === 'bash') tools.push({ name: 'Bash', input: { command: x[2], description: `run ${x[2]}` } })
      else if (x[1] === 'slow') slow = Number(x[2])
      else {
        const i = x[2].indexOf(':')
        tools.push({ name: x[2].slice(0, i), input: JSON.parse(x[2].slice(i + 1)) })
      }
    }
  }
  return { tools, slow }
}

const countToolTurns = (messages) =>
  messages.filter((m) => m.role === 'assistant' && (m.content ?? []).some((b) => b.type === 'tool_call')).length

/** The reply for request number `n` (1-based). */
export function reply(request, n) {
  const main = (request.tools ?? []).some((t) => t.name === 'shell')
  if (!main) return { content: [{ type: 'text', text: `side-reply #${n}` }], stopReason: 'end_turn', slow: 0 }
  const { tools, slow } = directives(request.messages ?? [])
  const k = countToolTurns(request.messages ?? [])
  if (k < tools.length) {
    const tool = tools[k]
    return {
      content: [
        { type: 'tool_call', id: `toolu_fake_${n}`, name: KERNEL_TOOL[tool.name] ?? tool.name, input: kernelInput(tool.name, tool.input) },
      ],
      stopReason: 'tool_use',
      slow,
    }
  }
  return { content: [{ type: 'text', text: `FINAL reply to request #${n}` }], stopReason: 'end_turn', slow }
}

export class DirectiveModelProvider {
  id = 'conformance-directive'
  #n = 0
  #recordTo

  /** @param {{ recordTo?: string }} options */
  constructor(options = {}) {
    this.#recordTo = options.recordTo
    if (this.#recordTo) mkdirSync(dirname(this.#recordTo), { recursive: true })
  }

  async generate(request, options) {
    const n = ++this.#n
    const r = reply(request, n)
    if (this.#recordTo) {
      const { sessionId, turnId, step, attempt } = options ?? {}
      appendFileSync(this.#recordTo, `${JSON.stringify({ n, sessionId, turnId, step, attempt, request, reply: r.content })}\n`)
    }
    if (r.slow) await new Promise((resolve) => setTimeout(resolve, r.slow))
    return { content: r.content, stopReason: r.stopReason, usage: { inputTokens: 100 + n, outputTokens: 12 } }
  }
}

/** The kernel plugin that provides it as the `model` service. */
export function directiveModel(options = {}) {
  const model = new DirectiveModelProvider(options)
  return Object.freeze({
    name: 'conformance-directive-model',
    model,
    setup(kernel) {
      kernel.provide('model', model, { lifetime: 'kernel' })
    },
  })
}
