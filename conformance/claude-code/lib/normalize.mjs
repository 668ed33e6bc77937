// Normalization shared by both sides: hook calls (stdin, env, cwd) and the model-visible items of
// each model request are reduced to a form where only behaviour that the dialect owns can differ.
import { normalizePaths } from '../../lib/normalize.mjs'

export { normalizePaths, requestDeltas, splitConversations } from '../../lib/normalize.mjs'

// ---- hook calls ------------------------------------------------------------------------------

/**
 * Payload keys holding ids or per-run paths, at any depth: each distinct value becomes a
 * placeholder numbered by first appearance in the run (`<session-1>`, `<prompt-2>`, `<call-1>`),
 * so the comparison checks which calls share an id, not the id itself.
 */
export const RELABEL_KEYS = {
  session_id: 'session',
  transcript_path: 'transcript',
  agent_transcript_path: 'transcript',
  prompt_id: 'prompt',
  tool_use_id: 'call',
  agent_id: 'agent',
  // the Agent tool's tool_response names the subagent's agent_id
  agentId: 'agent',
  turn_id: 'turn',
  message_id: 'message',
}

/**
 * Top-level payload keys whose values the kernel cannot reproduce: only their JSON type is compared
 * (not their content). `duration_ms` is a measured time; the four resume fields are Claude Code's
 * prompt-cache bookkeeping. (`permission_suggestions` is compared by value: the dialect has Claude's permission engine.)
 */
export const TYPE_ONLY_KEYS = [
  'duration_ms',
  'seconds_since_last_response',
  'context_tokens',
  'prompt_cache_likely_expired',
  'estimated_cache_write_usd',
]

/** Hook events that Claude Code runs detached from the loop: compared by invocation, outside the sequence. */
export const DETACHED_EVENTS = ['MessageDisplay']

/** The hook env variables compared (spec §4: MUST/SHOULD for the kernel). */
export const ENV_KEYS = ['CLAUDE_PROJECT_DIR', 'CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_EFFORT', 'CLAUDE_ENV_FILE']

/**
 * Numbers each distinct id per kind by first appearance. One per run, shared by payloads and env.
 * A value keeps the label it first got, under whatever key it appears later (so a kernel that
 * reuses one id as both `prompt_id` and `turn_id` shows up as `turn_id: "<prompt-1>"`).
 */
export class Labeler {
  #labels = new Map()
  #counts = {}
  #raw = []

  label(kind, value) {
    if (typeof value !== 'string') return value
    const key = value
    if (!this.#labels.has(key)) {
      this.#counts[kind] = (this.#counts[kind] ?? 0) + 1
      this.#labels.set(key, `<${kind}-${this.#counts[kind]}>`)
      this.#raw.push([value, `<${kind}-${this.#counts[kind]}>`])
    }
    return this.#labels.get(key)
  }

  /** Replaces every raw id seen so far (session ids inside paths, for example) in a string. */
  replaceIn(text) {
    let out = text
    for (const [raw, label] of [...this.#raw].sort((a, b) => b[0].length - a[0].length))
      if (raw.length >= 8) out = out.replaceAll(raw, label)
    return out
  }
}

function relabelDeep(value, labeler) {
  if (Array.isArray(value)) return value.map((v) => relabelDeep(v, labeler))
  if (value && typeof value === 'object') {
    const out = {}
    for (const [k, v] of Object.entries(value))
      out[k] = k in RELABEL_KEYS && typeof v === 'string' ? labeler.label(RELABEL_KEYS[k], v) : relabelDeep(v, labeler)
    return out
  }
  return value
}

/** How the stdin bytes are encoded: one compact JSON line and exactly one final `\n` (spec §4). */
export function stdinFormat(raw) {
  const finalNewlines = /\n*$/.exec(raw)[0].length
  const body = raw.slice(0, raw.length - finalNewlines)
  let compactJson = false
  try {
    compactJson = JSON.stringify(JSON.parse(body)) === body
  } catch {}
  return { compactJson, oneLine: !body.includes('\n'), finalNewlines }
}

/**
 * @param {{ event: string, tag: string, invocation: number, stdin: string, env: Record<string,string>, cwd: string }[]} calls  ordered
 * @param {[string, string][]} pathMap
 */
export function normalizeHookCalls(calls, pathMap, labeler = new Labeler(), options = {}) {
  return calls.map((call) => {
    const raw = normalizePaths(call.stdin, pathMap)
    let payload
    try {
      payload = relabelDeep(JSON.parse(raw), labeler)
      // PostToolBatch carries each call's model-visible result text: the tool's own output format is the tool's
      if (payload.hook_event_name === 'PostToolBatch' && Array.isArray(payload.tool_calls))
        for (const c of payload.tool_calls) {
          if (c?.tool_name === 'Agent') c.tool_response = agentBatchResponse(c.tool_response)
          else if (typeof c?.tool_response === 'string') c.tool_response = toolOutputText(c.tool_response, options)
        }
      if (payload.tool_name === 'Agent' && payload.tool_response && typeof payload.tool_response === 'object')
        payload.tool_response = agentToolResponse(payload.tool_response)
    } catch {
      payload = { __unparsable_stdin: raw }
    }
    const env = {}
    for (const name of ENV_KEYS) {
      const value = call.env?.[name]
      if (value === undefined) continue
      if (name === 'CLAUDE_CODE_SESSION_ID') env[name] = labeler.label('session', value)
      else env[name] = labeler.replaceIn(normalizePaths(value, pathMap))
    }
    return {
      key: `${call.event}/${call.tag}`,
      event: call.event,
      tag: call.tag,
      invocation: call.invocation,
      detached: DETACHED_EVENTS.includes(call.event),
      format: stdinFormat(call.stdin),
      payload,
      env,
      cwd: call.cwd === undefined ? null : normalizePaths(call.cwd, pathMap),
    }
  })
}

// ---- subagents (Claude Code's Agent tool) ------------------------------------------------------

/**
 * Values of the Agent tool's `tool_response` (PostToolUse) that are measured or not the kernel's to match: they
 * become `<measured: TYPE>` on both sides (the key, its position and its type still compare). Measured: times, token
 * counts, usage, the hash of Claude Code's note section. Not the kernel's: `resolvedModel` (the kernel's model is the
 * directive model, not Claude's) and `canContinueAgent` (true in Claude Code, whose SendMessage continues an agent;
 * false in the kernel, which has no SendMessage).
 */
export const AGENT_RESPONSE_MEASURED = [
  'totalDurationMs',
  'totalTokens',
  'usage',
  'harnessSectionHash',
  'duration_ms',
  'resolvedModel',
  'canContinueAgent',
]

export function agentToolResponse(response) {
  const out = {}
  for (const [k, v] of Object.entries(response)) out[k] = AGENT_RESPONSE_MEASURED.includes(k) ? `<measured: ${typeOfValue(v)}>` : v
  return out
}
const typeOfValue = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/**
 * Claude Code's hand-back frame around a foreground subagent's report (2.1.332): its notes (a `<tools-used-before-summary>`
 * note), `[Subagent hand-back] … The report follows:`, the report indented by two spaces, then `agentId: <id> (use
 * SendMessage …)` and `<usage>…</usage>`. The frame is Claude's own text (the kernel's Agent tool gives the notes and
 * the report), so both become `<subagent report>\n<notes><report>`.
 */
const HAND_BACK =
  /^([\s\S]*?)\[Subagent hand-back\][^\n]*The report follows:\n([\s\S]*?)\nagentId: a[0-9a-f]{16}\b[^\n]*(?:\n<usage>[\s\S]*?<\/usage>)?$/
const dedent = (text) =>
  text
    .split('\n')
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n')

export function agentReport(side, text) {
  if (side === 'claude') {
    const m = HAND_BACK.exec(text)
    if (!m) return text
    const notes = dedent(m[1]).replace(/\n+$/, '\n').replace(/^\n$/, '')
    return `<subagent report>\n${notes}${dedent(m[2])}`
  }
  return `<subagent report>\n${text}`
}

const sideOf = (text) => (text.includes('[Subagent hand-back]') ? 'claude' : 'kernel')

/** PostToolBatch's `tool_response` of an Agent call (both: the model-visible text, in text blocks). */
function agentBatchResponse(response) {
  if (typeof response === 'string') return agentReport(sideOf(response), response)
  if (Array.isArray(response))
    return response.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? { ...b, text: agentReport(sideOf(b.text), b.text) } : b))
  return response
}

// ---- model-visible items -----------------------------------------------------------------------

/**
 * Claude Code's own `<system-reminder>` user text blocks (not hook output), dropped: the
 * environment, model, deferred-tools, agent-types, skills, token-budget, date and git-attribution
 * reminders of the first user message (classic rendering; the system-role rendering keeps only the
 * attribution one there), the token-budget block Claude appends after a tool_result's trailing text
 * block, and the todo/task-tool nudges (not seen in these runs; dropped should they appear).
 */
export const CLAUDE_OWN_REMINDER_BLOCK =
  /^<system-reminder>\n(?:# Environment\n|You are powered by the model |The following deferred tools are now available|Available agent types for the Agent tool:|The following skills are available|<total_tokens>\d+ tokens left<\/total_tokens>\n<\/system-reminder>|Today's date is |Attribution for git commits and pull requests |The TodoWrite tool hasn't been used recently|The task tools haven't been used recently)(?:(?!<system-reminder>)[\s\S])*?(?:<\/system-reminder>)?\n?$/

/** Claude Code's own token-budget reminder that it appends to every tool_result in the classic rendering. */
export const CLAUDE_OWN_TOOL_RESULT_REMINDER = /\n\n<system-reminder>\n<total_tokens>\d+ tokens left<\/total_tokens>\n<\/system-reminder>/g

/**
 * Claude Code's per-turn system message (system-role rendering): its own environment section, with
 * SessionStart text put before it (`T\n\n`) and UserPromptSubmit text put after it (`\n\nT`), before
 * the closing date line. Only the hook parts are kept.
 */
const CLAUDE_OWN_SYSTEM_LEAD = /^The following deferred tools are now available via ToolSearch\.[\s\S]*?(?:\n\n|$)/
/**
 * Claude Code's own system-role messages, dropped: the agent types (a subagent's requests get them after its first tool
 * results) and, with the sandbox on, the `## Bash command sandbox` section (its configuration and guidance).
 */
const CLAUDE_OWN_SYSTEM_MESSAGE = /^(?:Available agent types for the Agent tool:\n|## Bash command sandbox\n)/
const PER_TURN_HEAD = '# Environment\nYou have been invoked in the following environment'
const PER_TURN_DATE = /\n\nToday's date is \d{4}-\d{2}-\d{2}\.$/
const HOOK_TEXT_START = /\n\n(?=[A-Z][A-Za-z]+(?::\S+)? hook (?:additional context|success|blocking error|error)\b)/

export function splitPerTurnSystemText(text) {
  const head = text.indexOf(PER_TURN_HEAD)
  if (head < 0) return null
  // in a subagent's request, Claude's deferred-tools list comes before its environment section
  const before = text.slice(0, head).replace(/\n\n$/, '').replace(CLAUDE_OWN_SYSTEM_LEAD, '')
  let rest = text.slice(head)
  const date = PER_TURN_DATE.exec(rest)
  if (date) rest = rest.slice(0, date.index)
  const m = HOOK_TEXT_START.exec(rest)
  return { sessionStart: before || null, prompt: m ? rest.slice(m.index + 2) : null }
}

const REMINDER_SPLIT = '\n\n<system-reminder>\n'

/**
 * A tool_result content string as items: the tool's own output (normalized: see `toolBody`) and,
 * when a hook text was appended to it (classic rendering), that suffix verbatim.
 */
function toolResultItem(side, content, isError, rendering, pathMap, agent = false, options = {}) {
  let text = normalizePaths(content, pathMap)
  if (agent && !isError) return { kind: 'tool_result', parts: [agentReport(side, text)] }
  if (side === 'claude') text = text.replace(CLAUDE_OWN_TOOL_RESULT_REMINDER, '')
  const i = text.indexOf(REMINDER_SPLIT)
  let body = i >= 0 ? text.slice(0, i) : text
  const suffix = i >= 0 ? text.slice(i) : undefined
  // Classic: Claude joins every reminder with trimEnd(output) + "\n\n" and always appends its own
  // <total_tokens> reminder, so the output's trailing whitespace is not observable there.
  if (rendering === 'classic') body = body.trimEnd()
  body = toolBody(side, body, isError, options)
  return { kind: isError ? 'tool_error' : 'tool_result', parts: suffix === undefined ? [body] : [body, suffix] }
}

/**
 * The tools' own output formats belong to the tools, not to the dialect: Claude's Bash failure
 * (`Exit code N\n<output>`) and the kernel shell's (`…\n[exit code: N]`) both become
 * `<tool failed: exit N>`; "no output" markers become `<no output>`. Anything else (including every
 * hook text put in place of an output) is compared verbatim.
 */
export function toolBody(side, body, isError, options = {}) {
  if (options.failureOutput && isError) {
    const kept = failureWithOutput(side, body)
    if (kept !== undefined) return kept
  }
  if (side === 'claude') {
    const m = /^Exit code (\d+)(?:\n[\s\S]*)?$/.exec(body)
    if (isError && m) return `<tool failed: exit ${m[1]}>`
    if (body === '(Bash completed with no output)') return '<no output>'
    const w = CLAUDE_WRITE_DONE.exec(body)
    if (!isError && w) return `<file written: ${w[1]}>`
  } else {
    const m = /(?:^|\n)\[exit code: (\d+)\]$/.exec(body)
    if (isError && m) return `<tool failed: exit ${m[1]}>`
    if (body === '[no output]') return '<no output>'
    const w = KERNEL_WRITE_DONE.exec(body)
    if (!isError && w) return `<file written: ${w[1]}>`
  }
  return body
}

/**
 * A failed shell call with its output kept (scenario `failureOutput`, e.g. the sandbox's `Read-only file system`):
 * Claude's `Exit code N\n<stdout>\n<stderr>` and the kernel shell's `<stdout>\n[stderr]\n<stderr>\n[exit code: N]`
 * both become `<tool failed: exit N>\n<stdout>\n<stderr>`; undefined when the text is neither.
 */
export function failureWithOutput(side, body) {
  if (side === 'claude') {
    const m = /^Exit code (\d+)(?:\n([\s\S]*))?$/.exec(body)
    return m ? `<tool failed: exit ${m[1]}>${m[2] ? `\n${m[2]}` : ''}` : undefined
  }
  const m = /^(?:([\s\S]*)\n)?\[exit code: (\d+)\]$/.exec(body)
  if (!m) return undefined
  const out = (m[1] ?? '').replace(/(^|\n)\[stderr\]\n/, '$1')
  return `<tool failed: exit ${m[2]}>${out ? `\n${out}` : ''}`
}

/** A Write that created a file: Claude's Write and the kernel's write_file word it their own way. */
const CLAUDE_WRITE_DONE = /^File created successfully at: (.+?)(?: \(file state is current in your context — no need to Read it back\))?$/
const KERNEL_WRITE_DONE = /^Wrote \d+ bytes to (.+)$/

/** Side-agnostic `toolBody` for tool output texts inside payloads (PostToolBatch `tool_response`). */
export function toolOutputText(text, options = {}) {
  if (options.failureOutput) {
    const side = /^Exit code \d+(?:\n|$)/.test(text) ? 'claude' : 'kernel'
    const kept = failureWithOutput(side, text)
    if (kept !== undefined) return kept
  }
  const claude = /^Exit code (\d+)(?:\n[\s\S]*)?$/.exec(text)
  if (claude) return `<tool failed: exit ${claude[1]}>`
  const kernel = /(?:^|\n)\[exit code: (\d+)\]$/.exec(text)
  if (kernel) return `<tool failed: exit ${kernel[1]}>`
  if (text === '(Bash completed with no output)' || text === '[no output]') return '<no output>'
  const written = CLAUDE_WRITE_DONE.exec(text) ?? KERNEL_WRITE_DONE.exec(text)
  if (written) return `<file written: ${written[1]}>`
  return text
}

const blocksOf = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [])
const contentText = (content) =>
  typeof content === 'string'
    ? content
    : blocksOf(content)
        .filter((b) => b?.type === 'text')
        .map((b) => b.text)
        .join('\n')

/** Consecutive `user` items are merged (one user turn for the Messages API, however it was split). */
function mergeUsers(items) {
  const out = []
  for (const it of items) {
    const last = out.at(-1)
    if (it.kind === 'user' && last?.kind === 'user') last.parts.push(...it.parts)
    else out.push({ ...it, parts: [...it.parts] })
  }
  return out
}

/** The kernel's file tools under Claude's names, with `path` as Claude's `file_path` (the directive model's mapping, undone). */
const CLAUDE_FILE_TOOL = { read_file: 'Read', write_file: 'Write', edit_file: 'Edit' }
function claudeToolView(name, input) {
  if (!(name in CLAUDE_FILE_TOOL) || !input || typeof input !== 'object') return { name, input }
  return {
    name: CLAUDE_FILE_TOOL[name],
    input: Object.fromEntries(Object.entries(input).map(([k, v]) => [k === 'path' ? 'file_path' : k, v])),
  }
}

const toolCallText = (name0, input0) => {
  const { name, input } = claudeToolView(name0, input0)
  return (name === 'Bash' || name === 'shell') && typeof input?.command === 'string'
    ? input.command
    : `${name} ${JSON.stringify(input ?? {})}`
}

/**
 * The items of one Anthropic Messages request body (real Claude Code), normalized; Claude Code's own
 * reminders dropped, its per-turn system message reduced to the hook texts in it. Those are placed
 * where the kernel puts the same texts (spec §7.4): SessionStart text first, UserPromptSubmit text
 * right before its prompt.
 * @returns {{ items: object[], ignored: number }}
 */
export function claudeRequestItems(body, pathMap, rendering, options = {}) {
  const items = []
  let ignored = 0
  const norm = (s) => normalizePaths(s, pathMap)
  const agentCalls = new Set()
  for (const m of body?.messages ?? []) {
    if (m.role === 'system') {
      const text = contentText(m.content)
      if (CLAUDE_OWN_SYSTEM_MESSAGE.test(text)) {
        ignored++
        continue
      }
      const split = splitPerTurnSystemText(text)
      if (split) {
        ignored++
        if (split.prompt !== null) {
          let at = items.length
          while (at > 0 && items[at - 1].kind !== 'user') at--
          items.splice(Math.max(0, at - 1), 0, { kind: 'system', parts: [norm(split.prompt)] })
        }
        if (split.sessionStart !== null) items.unshift({ kind: 'system', parts: [norm(split.sessionStart)] })
        continue
      }
      items.push({ kind: 'system', parts: blocksOf(m.content).map((b) => norm(b.text ?? JSON.stringify(b))) })
      continue
    }
    let texts = []
    const flush = () => {
      if (texts.length) items.push({ kind: m.role, parts: texts })
      texts = []
    }
    for (const b of blocksOf(m.content)) {
      if (b.type === 'text') {
        if (m.role === 'user' && CLAUDE_OWN_REMINDER_BLOCK.test(b.text)) {
          ignored++
          continue
        }
        texts.push(norm(b.text))
      } else if (b.type === 'tool_use') {
        flush()
        if (b.name === 'Agent') agentCalls.add(b.id)
        items.push({ kind: 'tool_call', parts: [norm(toolCallText(b.name, b.input))] })
      } else if (b.type === 'tool_result') {
        flush()
        const agent = agentCalls.has(b.tool_use_id)
        items.push(toolResultItem('claude', contentText(b.content), b.is_error === true, rendering, pathMap, agent, options))
      } else if (b.type === 'thinking' || b.type === 'redacted_thinking') {
        ignored++
      } else {
        flush()
        items.push({ kind: b.type, parts: [norm(JSON.stringify(b))] })
      }
    }
    flush()
  }
  return { items: mergeUsers(items), ignored }
}

/** The items of one kernel `ModelRequest` (recorded by the directive model), normalized; `system` and `tools` are not compared. */
export function kernelRequestItems(request, pathMap, rendering, options = {}) {
  const items = []
  const norm = (s) => normalizePaths(s, pathMap)
  const agentCalls = new Set()
  for (const m of request?.messages ?? []) {
    const kind = m.role === 'developer' ? 'system' : m.role === 'tool' ? 'user' : m.role
    let texts = []
    const flush = () => {
      if (texts.length) items.push({ kind, parts: texts })
      texts = []
    }
    for (const b of m.content ?? []) {
      if (b.type === 'text') texts.push(norm(b.text))
      else if (b.type === 'tool_call') {
        flush()
        if (b.name === 'Agent') agentCalls.add(b.id)
        items.push({ kind: 'tool_call', parts: [norm(toolCallText(b.name, b.input))] })
      } else if (b.type === 'tool_result') {
        flush()
        const agent = agentCalls.has(b.callId)
        items.push(toolResultItem('kernel', String(b.output), b.isError === true, rendering, pathMap, agent, options))
      } else {
        flush()
        items.push({ kind: b.type, parts: [norm(JSON.stringify(b))] })
      }
    }
    flush()
  }
  return { items: mergeUsers(items), ignored: 0 }
}

/**
 * The hook-caused texts of each request delta, with their anchor (for readers: the deltas themselves
 * are what is compared). `carrier` is how the text travels (`system` item, `tool_error`, appended to a
 * `tool_result`, a `user` reminder part); `after` is the delta item it follows.
 */
export function hookTexts(deltas) {
  const out = []
  for (const d of deltas) {
    d.items.forEach((it, i) => {
      const prev = i > 0 ? d.items[i - 1] : undefined
      const after = prev ? `${prev.kind} ${JSON.stringify(prev.parts[0]).slice(0, 60)}` : '(start of delta)'
      const add = (carrier, text, anchor = after) => out.push({ request: d.n, carrier, after: anchor, text })
      if (it.kind === 'system') for (const p of it.parts) add('system', p)
      else if (it.kind === 'tool_error') add('tool_error', it.parts[0])
      else if (it.kind === 'user') for (const p of it.parts) if (p.includes('<system-reminder>')) add('user reminder', p)
      if ((it.kind === 'tool_result' || it.kind === 'tool_error') && it.parts.length > 1)
        add(`inside ${it.kind}`, it.parts[1], `${it.kind} ${JSON.stringify(it.parts[0]).slice(0, 60)}`)
    })
  }
  return out
}
