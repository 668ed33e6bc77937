// What is compared per step: the order of what each server sent (methods, item types, response or error),
// the shape of each message (keys, value kinds, literal enums, id formats) and error codes.

/** Codex sends these for its own services (remote control, rate limits, read state, config and model warnings). */
export const NOT_COMPARED = new Set([
  'remoteControl/status/changed',
  'account/rateLimits/updated',
  'thread/readState/changed',
  'configWarning',
  'deprecationNotice',
  'mcpServer/startupStatus/updated',
  'skills/changed',
  'warning',
])

/** The harness's documented extensions (its README): members only it sends, by message signature and path. */
export const EXTENSIONS = new Set(['response initialize: .driver', 'response initialize: .hostInput'])

/**
 * Members the harness sends as null because it has no such value (its README): Codex's unified-exec process handle,
 * the model's context window (the kernel's providers do not report one).
 */
export const NEUTRAL_NULLS = new Set(['.item.processId', '.tokenUsage.modelContextWindow'])

/** Codex's read state (its `thread/readState/changed` is not compared either). */
const NOT_COMPARED_PATHS = new Set(['.readStates', '.readState'])

/**
 * Where the harness knowingly differs, by scenario step, with why (README "Not done / deviations"). Reported,
 * not counted as a difference.
 */
export const KNOWN_DEVIATIONS = {
  'interrupt-during-command/turn/interrupt, until turn/completed':
    'the kernel stops the interrupted command and completes its item (failed) after turn/completed; Codex leaves it running and completes it when it ends (here after the run)',
  'errors/a request whose id is an object':
    'the harness answers it with an Invalid Request whose id is null (JSON-RPC 2.0), so a client never waits forever; Codex answers nothing',
  'errors/turn/start with empty input':
    'Codex samples the model again with no new input; the kernel runs no turn without input, so the harness refuses it (`input must not be empty`)',
  ...Object.fromEntries(
    [
      'guardrails-read-only-never/turn: a command that reads, then one that writes in cwd',
      'guardrails-workspace-write-never/turn: a write inside cwd, then one outside cwd and /tmp',
      ...['guardrails-read-only-never', 'guardrails-workspace-write-never', 'guardrails-rule-prompt', 'guardrails-turn-sandbox-policy'].map(
        (scenario) => `${scenario}/fact: items of commands the sandbox denied`,
      ),
    ].map((step) => [
      step,
      "Codex 0.169.0 mostly sends no item for a command its sandbox denied (`Read-only file system`, exit 1), though the model gets the command's output (no item under never in 30 of 30 runs, after an approval under on-request in 9 of 10; otherwise a `failed` item, exit code 1): it does when it takes the failure for a sandbox denial, which it does not every time. The harness reports every command it ran (this suite's README)",
    ]),
  ),
  ...Object.fromEntries(
    ['commands', 'items of commands the sandbox denied', 'told', 'accepted.txt (outside) exists'].map((fact) => [
      `guardrails-untrusted-sandbox-denied/fact: ${fact}`,
      'Codex 0.169.0 under `untrusted` runs an approved command again outside the sandbox, without asking again, when the sandbox denied it, but not every time (the file was written in 14 of 18 runs; otherwise a `failed` item, exit code 1); the harness runs an approved command in the sandbox once (guardrails.md: "asks, then runs sandboxed"). See the README of this suite',
    ]),
  ),
  ...Object.fromEntries(
    [
      'guardrails-escalation-on-request-decline',
      'guardrails-escalation-on-request-accept',
      'guardrails-untrusted',
      'guardrails-untrusted-sandbox-denied',
      'guardrails-rule-prompt',
      'guardrails-permission-request-hook',
    ].map((scenario) => [
      `${scenario}/fact: approvals: the shell shown`,
      "an approval request shows the command as the kernel's shell runs it, `/bin/bash -c` (no login shell); Codex's exec_command runs `/bin/bash -lc`",
    ]),
  ),
}

/** Keys whose string values are compared as they are (enums), not by kind. */
const LITERAL_KEYS = new Set(['type', 'status', 'itemsView', 'role', 'phase', 'platformFamily', 'platformOs', 'decision', 'kind'])

export function idKind(value) {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value)) return '<uuidv7>'
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) return '<uuid>'
  if (value.startsWith('/')) return '<path>'
  return '<string>'
}

/** A value's shape: object keys (sorted) with their shapes, arrays as the set of element shapes. */
export function shape(value, key) {
  if (value === null) return null
  if (Array.isArray(value)) {
    const seen = new Map()
    for (const element of value) {
      const s = shape(element)
      seen.set(JSON.stringify(s), s)
    }
    return [...seen.keys()].sort().map((k) => seen.get(k))
  }
  switch (typeof value) {
    case 'string':
      return LITERAL_KEYS.has(key) ? value : idKind(value)
    case 'number':
      return Number.isInteger(value) ? '<int>' : '<number>'
    case 'boolean':
      return '<boolean>'
    case 'object':
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          // A map keyed by ids (read states by thread) has the id's kind as its key.
          .map((k) => [idKind(k) === '<string>' || idKind(k) === '<path>' ? k : idKind(k), shape(value[k], k)]),
      )
    default:
      return `<${typeof value}>`
  }
}

/** One line per message a step compares: `notification item/completed commandExecution`, `response turn/start`, `error -32600`. */
export function signature(entry) {
  const { kind, method, message } = entry
  if (kind === 'garbage') return 'garbage'
  if (kind === 'response') return message.error ? `error ${method ?? '?'} ${message.error.code}` : `response ${method ?? '?'}`
  const item = message.params?.item?.type
  return `${kind} ${method}${item ? ` ${item}` : ''}`
}

export const compared = (entry) => entry.kind === 'response' || !NOT_COMPARED.has(entry.method)

/**
 * Consecutive deltas of one kind are one entry: how a server chunks a stream is not the protocol. A command's output
 * deltas are left out of the order: Codex sends none for a command that ended before its first wait, the harness
 * streams every command's output as it comes.
 */
function collapse(entries) {
  const out = []
  for (const entry of entries) {
    if (entry.method === 'item/commandExecution/outputDelta') continue
    const last = out.at(-1)
    if (last && /\/(delta|outputDelta)$/.test(entry.method ?? '') && last.method === entry.method) continue
    out.push(entry)
  }
  return out
}

function diffShapes(a, b, path, out) {
  if (JSON.stringify(a) === JSON.stringify(b) || NOT_COMPARED_PATHS.has(path)) return
  if (b === null && NEUTRAL_NULLS.has(path)) return
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (NOT_COMPARED_PATHS.has(`${path}.${key}`)) continue
      if (!(key in b)) out.push(`${path}.${key}: only in Codex`)
      else if (!(key in a)) out.push(`${path}.${key}: only in harness`)
      else diffShapes(a[key], b[key], `${path}.${key}`, out)
    }
    return
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length > 0 && b.length > 0) {
    // Compare the union of element shapes key by key (items of different types are separate entries anyway).
    diffShapes(Object.assign({}, ...a.filter(isObject)), Object.assign({}, ...b.filter(isObject)), `${path}[]`, out)
    return
  }
  out.push(`${path}: Codex ${JSON.stringify(a)}, harness ${JSON.stringify(b)}`)
}

/** Ids and paths differ by run: an error text is compared without them. */
export function normalizeText(text) {
  return (
    String(text)
      // Which methods each server knows is the method table's business, not the error's.
      .replace(/expected one of .*$/s, 'expected one of <methods>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\/[^\s`'"]+/g, '<path>')
  )
}

const isObject = (value) => value && typeof value === 'object' && !Array.isArray(value)

/** Compares one step of both sides; returns the differences (empty when the step matches). */
export function compareStep(codexEntries, harnessEntries) {
  const codex = collapse(codexEntries.filter(compared))
  const harness = collapse(harnessEntries.filter(compared))
  const differences = []
  const codexOrder = codex.map(signature)
  const harnessOrder = harness.map(signature)
  if (JSON.stringify(codexOrder) !== JSON.stringify(harnessOrder)) {
    differences.push(
      `order:\n      Codex:   ${codexOrder.join(' → ') || '(nothing)'}\n      harness: ${harnessOrder.join(' → ') || '(nothing)'}`,
    )
    return differences
  }
  for (const [index, entry] of codex.entries()) {
    const other = harness[index]
    const out = []
    const body = (e) =>
      e.kind === 'response' ? (e.message.error ? { error: { code: e.message.error.code } } : e.message.result) : e.message.params
    diffShapes(shape(body(entry)), shape(body(other)), '', out)
    if (
      entry.message.error &&
      other.message.error &&
      normalizeText(entry.message.error.message) !== normalizeText(other.message.error.message)
    ) {
      out.push(`message: Codex ${JSON.stringify(entry.message.error.message)}, harness ${JSON.stringify(other.message.error.message)}`)
    }
    for (const line of out) {
      const where = `${signature(entry)}: ${line.replace(/: only in harness$/, '')}`
      if (!EXTENSIONS.has(where)) differences.push(`${signature(entry)}: ${line}`)
    }
  }
  return differences
}
