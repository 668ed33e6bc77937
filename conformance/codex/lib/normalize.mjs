// Normalization shared by both sides: hook stdin payloads and model-visible request deltas are
// reduced to a form where only behaviour that the dialect owns can differ.
import { normalizePaths } from '../../lib/normalize.mjs'
import { MCP_SERVER_SCRIPT } from '../../lib/real-clients.mjs'

export { normalizePaths, requestDeltas, splitConversations } from '../../lib/normalize.mjs'

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
  // a model request's thread: the session's id for the root thread
  thread_id: 'session',
  turn_id: 'turn',
  request_id: 'request',
  response_id: 'response',
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
  return [[home, '<CODEX_HOME>'], [cwd, '<CWD>'], [tmp, '<TMPDIR>'], ...extra, [caseDir, '<CASE>'], [MCP_SERVER_SCRIPT, '<MCP_SERVER>']]
}

/**
 * @param {{ event: string, tag: string, invocation: number, stdin: string }[]} calls  ordered (collectHookCalls)
 */
/**
 * The agent ids of a run (the `agent_id` values of its hook payloads, by first appearance) as [id, `<agent-N>`]
 * pairs, so that an id inside a text (spawn_agent's result `{"agent_id":…}`, a `<subagent_notification>`) gets the
 * label the `agent_id` key gets. Codex's agent id is the child thread's id, the kernel's the child session's.
 */
export function agentIdMap(calls) {
  const ids = []
  for (const call of calls) {
    const m = /"agent_id":"([^"]+)"/.exec(call.stdin)
    if (m && !ids.includes(m[1])) ids.push(m[1])
  }
  return ids.map((id, i) => [id, `<agent-${i + 1}>`])
}

/** A subagent's nickname (spawn_agent's result; Codex and the kernel each pick one at random) becomes `<nickname>`. */
export const normalizeNickname = (text) => text.replace(/(\\?"nickname\\?":\\?")[^"\\]*/g, '$1<nickname>')

export function normalizeHookCalls(calls, pathMap) {
  pathMap = [...pathMap, ...agentIdMap(calls)]
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
  const normalized = calls.map((call) => {
    const raw = normalizeNickname(normalizePaths(call.stdin, pathMap))
    let payload
    let compact = false
    try {
      const parsed = JSON.parse(raw)
      compact = JSON.stringify(parsed) === raw
      payload = {}
      for (const [k, v] of Object.entries(parsed)) payload[k] = k in RELABEL_KEYS ? relabel(RELABEL_KEYS[k], v) : v
      // The counts are the model's (the fake server's, the kernel side's scripted model's); their keys are the dialect's.
      if (payload.token_usage && typeof payload.token_usage === 'object') payload.token_usage = Object.keys(payload.token_usage)
    } catch {
      payload = { __unparsable_stdin: raw }
    }
    // a subagent's calls (those with an agent_id) are a sequence of their own, named by its agent label
    const agent = typeof payload.agent_id === 'string' ? payload.agent_id : null
    return {
      key: agent ? `${agent} ${call.event}/${call.tag}` : `${call.event}/${call.tag}`,
      event: call.event,
      tag: call.tag,
      invocation: call.invocation,
      agent,
      format: { compactJson: compact, trailingNewline: call.stdin.endsWith('\n') },
      payload,
    }
  })
  return agentsApart(normalized)
}

/**
 * A parent's and a subagent's hooks run concurrently (Codex runs the child alongside the root turn), so their relative
 * order and the invocation counts hook.sh gives them are a race: invocations are counted per agent (the root's calls,
 * then each subagent's), and each agent's calls are compared as a sequence of their own (`hookSequences`).
 */
function agentsApart(calls) {
  if (!calls.some((c) => c.agent)) return calls
  const counts = {}
  return calls.map((c) => {
    counts[c.key] = (counts[c.key] ?? 0) + 1
    return { ...c, invocation: counts[c.key] }
  })
}

/** The hook-call sequences compared on their own: the root's, then one per subagent (by agent label). */
export function hookSequences(...runs) {
  const agents = [...new Set(runs.flatMap((r) => r.hookCalls.map((c) => c.agent ?? null)))].filter(Boolean).sort()
  return [['sequence', (c) => !c.agent], ...agents.map((a) => [`sequence of ${a}`, (c) => c.agent === a])]
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

const CODEX_MCP_HEADER = /^Wall time: [^\n]* seconds\nOutput:(?:\n|$)/

/**
 * An MCP tool's `function_call_output` (Codex 0.169.0): `Wall time: <s> seconds\nOutput:\n<text>`, or, for a result
 * with isError, a list of input_text items whose first is that header. Both become the result's text (the items'
 * texts joined with `\n`), so they compare with the kernel's mcp() output; the header is Codex's own.
 */
export function normalizeCodexMcpOutput(output) {
  if (typeof output === 'string') return CODEX_MCP_HEADER.test(output) ? output.replace(CODEX_MCP_HEADER, '') : output
  if (!Array.isArray(output) || !output.every((p) => typeof p?.text === 'string')) return JSON.stringify(output)
  const texts = output.map((p) => p.text)
  if (texts.length && CODEX_MCP_HEADER.test(`${texts[0]}\n`)) texts[0] = `${texts[0]}\n`.replace(CODEX_MCP_HEADER, '')
  return texts.filter((t, i) => i > 0 || t !== '').join('\n')
}

/** `mcp__<server>` namespace + `<tool>` (Codex's Responses API form) → `mcp__<server>__<tool>`, the hooks' and the kernel's name. */
export const codexToolName = (item) => (item.namespace ? `${item.namespace}__${item.name}` : item.name)
/** The model-visible name of a call: Codex's multi-agent tools (namespace `multi_agent_v1`) by their own name, as the kernel's. */
const modelToolName = (item) => (item.namespace === 'multi_agent_v1' ? item.name : codexToolName(item))

function codexItem(item, mcpCalls) {
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
      if (codexToolName(item).startsWith('mcp__')) mcpCalls.add(item.call_id)
      return { kind: 'tool_call', parts: [`${modelToolName(item)} ${item.arguments}`] }
    }
    case 'function_call_output':
      if (mcpCalls.has(item.call_id)) return { kind: 'tool_result', parts: [normalizeCodexMcpOutput(item.output)] }
      return { kind: 'tool_result', parts: [normalizeCodexToolOutput(item.output)] }
    default:
      return { kind: item.type, parts: [JSON.stringify(item)] }
  }
}

const ignoredCodexItem = (item) =>
  item.type === 'message' &&
  (item.role === 'developer' || item.role === 'user') &&
  IGNORED_CODEX_PREFIXES.some((p) => String(item.content?.[0]?.text ?? '').startsWith(p))

/** The text Codex puts before the summary in the history it rebuilds after a compaction (0.169.0). */
export const CODEX_SUMMARY_PREFIX =
  'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n'

/**
 * A compaction summary's wrapper text is the compactor's (Codex's, or the kernel's `summaryText`), not the dialect's:
 * both become `<compaction summary>\n<summary>`. `wrapper`: [prefix, suffix] around the summary.
 */
export function normalizeSummaryText(text, [prefix, suffix]) {
  if (!text.startsWith(prefix) || !text.endsWith(suffix) || text.length < prefix.length + suffix.length) return text
  return `<compaction summary>\n${text.slice(prefix.length, text.length - suffix.length)}`
}

/** Items a Responses API request body carries, normalized; Codex's own items dropped. */
export function codexRequestItems(body, pathMap) {
  const items = []
  const mcpCalls = new Set()
  let ignored = 0
  for (const item of body?.input ?? []) {
    if (ignoredCodexItem(item)) {
      ignored++
      continue
    }
    const it = codexItem(item, mcpCalls)
    const parts = it.kind === 'user' ? it.parts.map((p) => normalizeSummaryText(p, [CODEX_SUMMARY_PREFIX, ''])) : it.parts
    items.push({ kind: it.kind, parts: parts.map((p) => normalizeNickname(normalizePaths(p, pathMap))) })
  }
  return { items, ignored }
}

/**
 * Items of one kernel ModelRequest (recorded by scriptedModel), normalized; `system` is ignored. `summaryWrapper`: the
 * kernel's summaryText() around a summary, [prefix, suffix].
 */
export function kernelRequestItems(request, pathMap, summaryWrapper) {
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
    if (texts.length)
      items.push({
        kind: message.role,
        parts: message.role === 'user' && summaryWrapper ? texts.map((t) => normalizeSummaryText(t, summaryWrapper)) : texts,
      })
    items.push(...rest)
  }
  return items.map((it) => ({ kind: it.kind, parts: it.parts.map((p) => normalizeNickname(normalizePaths(p, pathMap))) }))
}
