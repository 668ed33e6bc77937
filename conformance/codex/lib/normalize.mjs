// Normalization shared by both sides: hook stdin payloads and model-visible request deltas are
// reduced to a form where only behaviour that the dialect owns can differ.
import { normalizePaths } from '../../lib/normalize.mjs'

export { normalizePaths, requestDeltas } from '../../lib/normalize.mjs'

/** Payload keys whose values are compared, not just their types. */
export const VALUE_KEYS = [
  'hook_event_name',
  'tool_name',
  'tool_input',
  'tool_response',
  'prompt',
  'source',
  'stop_hook_active',
  'last_assistant_message',
  'trigger',
  'reason',
  'cwd',
  'model',
  'permission_mode',
  'agent_type',
]

/**
 * Payload keys holding ids or per-run paths: each distinct value becomes a placeholder numbered by
 * first appearance in the run (`<session-1>`, `<turn-2>`, `<call-1>`, `<transcript-1>`), so the
 * comparison checks which calls share an id without depending on the id itself.
 */
export const RELABEL_KEYS = {
  session_id: 'session',
  turn_id: 'turn',
  tool_use_id: 'call',
  agent_id: 'agent',
  transcript_path: 'transcript',
  agent_transcript_path: 'transcript',
}

/**
 * Codex's own input items, not produced by hooks: a developer or user message whose first text
 * part starts with one of these is dropped before deltas are computed.
 */
export const IGNORED_CODEX_PREFIXES = [
  'You are a coding agent running in the Codex CLI', // base instructions (developer)
  '<permissions instructions>', // sandbox/approval instructions (developer)
  '<skills_instructions>', // skills list (developer)
  '<environment_context>', // cwd, shell, date, timezone, sandbox (user)
  '<collaboration_mode>', // collaboration mode (developer)
  '<apps_instructions>',
  '<user_instructions>',
  '# AGENTS.md instructions',
]

/** The placeholders both sides use for the same things. */
export function casePathMap(caseDir, { home, cwd, tmp, extra = [] }) {
  return [[home, '<CODEX_HOME>'], [cwd, '<CWD>'], [tmp, '<TMPDIR>'], ...extra, [caseDir, '<CASE>']]
}

/**
 * @param {{ event: string, tag: string, invocation: number, stdin: string }[]} calls  ordered (collectHookCalls)
 */
export function normalizeHookCalls(calls, pathMap) {
  const labels = new Map()
  const counts = {}
  const relabel = (kind, value) => {
    if (typeof value !== 'string') return value
    const key = `${kind}\u0000${value}`
    if (!labels.has(key)) {
      counts[kind] = (counts[kind] ?? 0) + 1
      labels.set(key, `<${kind}-${counts[kind]}>`)
    }
    return labels.get(key)
  }
  return calls.map((call) => {
    const raw = normalizePaths(call.stdin, pathMap)
    let payload
    let compact = false
    try {
      const parsed = JSON.parse(raw)
      compact = JSON.stringify(parsed) === raw
      payload = {}
      for (const [k, v] of Object.entries(parsed)) payload[k] = k in RELABEL_KEYS ? relabel(RELABEL_KEYS[k], v) : v
    } catch {
      payload = { __unparsable_stdin: raw }
    }
    return {
      key: `${call.event}/${call.tag}`,
      event: call.event,
      tag: call.tag,
      invocation: call.invocation,
      format: { compactJson: compact, trailingNewline: call.stdin.endsWith('\n') },
      payload,
    }
  })
}

// ---- model-visible items ---------------------------------------------------------------------

const CODEX_EXEC_OUTPUT =
  /^Chunk ID: [^\n]*\nWall time: [^\n]*\nProcess exited with code (-?\d+)\n(?:Original token count: \d+\n)?Output:\n([\s\S]*)$/

/**
 * A raw shell result in Codex's exec_command format becomes its output body (one trailing newline
 * dropped, `[exit code: N]` appended when N != 0, `[no output]` when empty) so it compares with the
 * kernel's shell tool; text a hook put in place of the output is left alone.
 */
export function normalizeCodexToolOutput(output) {
  const text = typeof output === 'string' ? output : JSON.stringify(output)
  const m = CODEX_EXEC_OUTPUT.exec(text)
  if (!m) return text
  const parts = []
  const body = m[2].replace(/\n$/, '')
  if (body !== '') parts.push(body)
  if (m[1] !== '0') parts.push(`[exit code: ${m[1]}]`)
  return parts.length ? parts.join('\n') : '[no output]'
}

function codexItem(item) {
  switch (item.type) {
    case 'message': {
      const parts = (item.content ?? []).map((c) => (typeof c.text === 'string' ? c.text : JSON.stringify(c)))
      return { kind: item.role, parts }
    }
    case 'function_call': {
      let args = {}
      try {
        args = JSON.parse(item.arguments)
      } catch {}
      if (item.name === 'exec_command' && typeof args.cmd === 'string') return { kind: 'tool_call', parts: [args.cmd] }
      return { kind: 'tool_call', parts: [`${item.name} ${item.arguments}`] }
    }
    case 'function_call_output':
      return { kind: 'tool_result', parts: [normalizeCodexToolOutput(item.output)] }
    default:
      return { kind: item.type, parts: [JSON.stringify(item)] }
  }
}

const ignoredCodexItem = (item) =>
  item.type === 'message' &&
  (item.role === 'developer' || item.role === 'user') &&
  IGNORED_CODEX_PREFIXES.some((p) => String(item.content?.[0]?.text ?? '').startsWith(p))

/** Items a Responses API request body carries, normalized; Codex's own items dropped. */
export function codexRequestItems(body, pathMap) {
  const items = []
  let ignored = 0
  for (const item of body?.input ?? []) {
    if (ignoredCodexItem(item)) {
      ignored++
      continue
    }
    const it = codexItem(item)
    items.push({ kind: it.kind, parts: it.parts.map((p) => normalizePaths(p, pathMap)) })
  }
  return { items, ignored }
}

/** Items of one kernel ModelRequest (recorded by scriptedModel), normalized; `system` is ignored. */
export function kernelRequestItems(request, pathMap) {
  const items = []
  for (const message of request?.messages ?? []) {
    const texts = []
    const rest = []
    for (const block of message.content ?? []) {
      if (block.type === 'text') texts.push(block.text)
      else if (block.type === 'tool_call') {
        const input = block.input ?? {}
        rest.push({
          kind: 'tool_call',
          parts: [block.name === 'shell' && typeof input.command === 'string' ? input.command : `${block.name} ${JSON.stringify(input)}`],
        })
      } else if (block.type === 'tool_result') rest.push({ kind: 'tool_result', parts: [String(block.output).replace(/\n$/, '')] })
      else rest.push({ kind: block.type, parts: [JSON.stringify(block)] })
    }
    if (texts.length) items.push({ kind: message.role, parts: texts })
    items.push(...rest)
  }
  return items.map((it) => ({ kind: it.kind, parts: it.parts.map((p) => normalizePaths(p, pathMap)) }))
}
