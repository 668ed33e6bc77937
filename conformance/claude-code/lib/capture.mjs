// Reading back what shared/real-clients/claude-code/bin/hook.sh recorded (both sides run it) and
// what the fake Messages API server logged (real side).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readJsonLines, readText } from '../../lib/files.mjs'
import { orderOccurrences } from '../../lib/hook-calls.mjs'
import { DETACHED_EVENTS } from './normalize.mjs'

function parseKeyValues(text) {
  const out = {}
  for (const line of text.split('\n')) {
    const i = line.indexOf('=')
    if (i > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(line.slice(0, i))) out[line.slice(0, i)] = line.slice(i + 1)
  }
  return out
}

/**
 * The hook calls hook.sh recorded in a run directory (`<ns>-<Event>-<tag>.stdin|.env|.meta`), in a
 * deterministic order: by start time, except that calls of one event that are adjacent in time
 * (the handlers of one occurrence, started together) are ordered by (invocation, tag), since their
 * start order is a race. Detached events (MessageDisplay) come last, ordered by their content (`orderDetached`). `runDirs`: one run
 * directory, or several (the processes of one scenario), whose calls are taken together.
 * @returns {{ event: string, tag: string, invocation: number, stdin: string, env: Record<string,string>, cwd: string|undefined, base: string }[]}
 */
export function collectHookCalls(runDirs) {
  const raw = []
  for (const runDir of [runDirs].flat()) {
    if (!existsSync(runDir)) continue
    for (const file of readdirSync(runDir).sort()) {
      const m = /^(\d+)-([A-Za-z]+)-(.+)\.stdin$/.exec(file)
      if (!m) continue
      const base = join(runDir, file.slice(0, -'.stdin'.length))
      raw.push({ ns: BigInt(m[1]), event: m[2], tag: m[3], base })
    }
  }
  raw.sort((a, b) => (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0))
  const counts = {}
  const calls = raw.map(({ event, tag, base }) => {
    const k = `${event}/${tag}`
    counts[k] = (counts[k] ?? 0) + 1
    const meta = parseKeyValues(readText(`${base}.meta`))
    return {
      event,
      tag,
      invocation: counts[k],
      stdin: readFileSync(`${base}.stdin`, 'utf8'),
      env: parseKeyValues(readText(`${base}.env`)),
      cwd: meta.pwd,
      base,
    }
  })
  const main = calls.filter((c) => !DETACHED_EVENTS.includes(c.event))
  return [...orderOccurrences(main), ...orderDetached(calls.filter((c) => DETACHED_EVENTS.includes(c.event)))]
}

/**
 * Detached calls (MessageDisplay) run beside the turn, so two can start together in either order: they are ordered by
 * what they carry (the message's text, numbers by value, then its index), and numbered again in that order. The fake
 * model's replies name the request they answer ("FINAL reply to request #2"), so that is the order they were given in.
 */
function orderDetached(calls) {
  const key = (call) => {
    try {
      const { delta, index } = JSON.parse(call.stdin)
      return `${delta}\u0000${index}`
    } catch {
      return call.stdin
    }
  }
  const ordered = calls.map((call) => ({ call, key: key(call) })).sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }))
  const counts = {}
  return ordered.map(({ call }) => {
    const k = `${call.event}/${call.tag}`
    counts[k] = (counts[k] ?? 0) + 1
    return { ...call, invocation: counts[k] }
  })
}

/** The fake server's log: POST /v1/messages entries, each with `main` (the request offers Bash) or not, and `agent` (a subagent's id, or null). */
export function readClaudeRequests(runDir) {
  return readJsonLines(join(runDir, 'server', 'requests.jsonl'))
    .filter((e) => e.method === 'POST' && /^\/v1\/messages(\?|$)/.test(e.url))
    .map((e) => ({
      n: e.n,
      body: e.body,
      main: Array.isArray(e.body?.tools) && e.body.tools.some((t) => t.name === 'Bash'),
      // a subagent's requests carry its agent id (Claude Code 2.1.332)
      agent: e.headers?.['x-claude-code-agent-id'] ?? null,
    }))
}

/** The `result` frame of a `claude -p --output-format stream-json` run, its `init` frame, and the notifications. */
export function readClaudeStream(runDir) {
  const lines = readText(join(runDir, 'stream.jsonl')).split('\n').filter(Boolean)
  let result
  let init
  const notifications = []
  for (const line of lines) {
    let m
    try {
      m = JSON.parse(line)
    } catch {
      continue
    }
    if (m.type === 'result') result = m
    if (m.type === 'system' && m.subtype === 'init') init ??= m
    if (m.type === 'system' && m.subtype === 'notification') notifications.push(m.text)
  }
  return { result, init, notifications }
}

/**
 * The turn outcome in the kernel's terms (TurnStatus): `completed`, `halted` (a hook's
 * `continue:false`, Claude's terminal_reason `hook_stopped`), `blocked` (UserPromptSubmit exit 2
 * on the prompt: no model call, Claude's result is the warning), `failed`.
 */
export function claudeOutcome(result) {
  if (!result) return { status: 'no-result' }
  if (result.subtype !== 'success' || result.is_error) return { status: 'failed', detail: result.subtype }
  if (result.terminal_reason === 'hook_stopped') return { status: 'halted', result: result.result }
  if (result.terminal_reason === 'completed') return { status: 'completed', result: result.result }
  if (
    result.terminal_reason === undefined &&
    result.num_turns === 0 &&
    /^UserPromptSubmit operation blocked by hook/.test(result.result ?? '')
  )
    return { status: 'blocked', reason: result.result }
  return { status: `unknown (${result.terminal_reason})`, result: result.result }
}
