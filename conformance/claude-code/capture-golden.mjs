#!/usr/bin/env node
// Re-records the golden hook payloads in dialects/claude-code/test/fixtures/golden/ from the real
// Claude Code the Agent SDK pin bundles (see that folder's README.md), as `npm ci` installs it (or
// CLAUDE_BIN, or shared/real-clients/install.sh's); downloads nothing.
// Usage: node conformance/claude-code/capture-golden.mjs [--out DIR] [--dry-run]
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { readText } from '../lib/files.mjs'
import { collectHookCalls } from './lib/capture.mjs'
import {
  CLASSIC_MODEL,
  CLAUDE_VERSION,
  GOLDEN_DIR,
  hookScript,
  makeTempRoot,
  modesDir,
  probeClaude,
  runCliScript,
  scriptEnv,
} from './lib/env.mjs'
import { P } from './lib/kit.mjs'

const BYPASS = ['--dangerously-skip-permissions']
const SUBAGENT_PROMPT =
  'Delegate. [[tool:Agent:{"description":"sub job","prompt":"sub task <<bash:echo sub>>","subagent_type":"general-purpose"}]]'

/**
 * The runs, each in its own OUT (`<out>/<case>/`), with the shared harness's all-events settings
 * (gen-settings.mjs: `hook.sh <Event> main` on 33 events, plus PreToolUse A/B and PostToolUse dup).
 * `steps` run in order in the same OUT; `resume: 'first'` adds `--resume <session id of step "first">`.
 */
const CASES = [
  { name: 'g-main', mode: 'r11-stop-block', steps: [{ run: 'run', prompt: P, args: BYPASS }] },
  { name: 'g-no-effort', steps: [{ run: 'run', prompt: P, args: [...BYPASS, '--model', CLASSIC_MODEL] }] },
  { name: 'g-fail', steps: [{ run: 'run', prompt: 'Please run it. [[bash:echo oops >&2; exit 3]]', args: BYPASS }] },
  { name: 'g-deny', mode: 'r04-pre-deny', steps: [{ run: 'run', prompt: P, args: BYPASS }] },
  { name: 'g-updated', mode: 'r05-pre-allow-upd', steps: [{ run: 'run', prompt: P, args: BYPASS }] },
  // default permission mode: the Bash call writes a file, so a permission prompt would show
  { name: 'g-perm', steps: [{ run: 'run', prompt: 'Write a file. [[bash:echo hi > f.txt]]', args: [] }] },
  { name: 'g-subagent', steps: [{ run: 'run', prompt: SUBAGENT_PROMPT, args: BYPASS }] },
  {
    name: 'g-compact',
    steps: [
      { run: 'first', prompt: P, args: BYPASS },
      { run: 'compact', prompt: '/compact', args: BYPASS, resume: 'first' },
    ],
  },
]

/**
 * Which captured call becomes which fixture: [file, case, run, event, nth call (1-based) of that
 * event with tag `main`, filter?]. The first file per event is `<Event>.json`; the others are variants.
 */
const PICKS = [
  ['SessionStart.json', 'g-main', 'run', 'SessionStart', 1],
  ['SessionStart.resume.json', 'g-compact', 'compact', 'SessionStart', 1],
  ['SessionStart.compact.json', 'g-compact', 'compact', 'SessionStart', 2],
  ['UserPromptSubmit.json', 'g-main', 'run', 'UserPromptSubmit', 1],
  ['UserPromptSubmit.task-notification.json', 'g-subagent', 'run', 'UserPromptSubmit', 2],
  ['PreToolUse.json', 'g-main', 'run', 'PreToolUse', 1],
  ['PreToolUse.no-effort.json', 'g-no-effort', 'run', 'PreToolUse', 1],
  ['PreToolUse.subagent.json', 'g-subagent', 'run', 'PreToolUse', 1, (p) => 'agent_id' in p],
  ['PermissionRequest.json', 'g-perm', 'run', 'PermissionRequest', 1],
  ['PostToolUse.json', 'g-main', 'run', 'PostToolUse', 1],
  ['PostToolUse.updated-input.json', 'g-updated', 'run', 'PostToolUse', 1],
  ['PostToolUseFailure.json', 'g-fail', 'run', 'PostToolUseFailure', 1],
  ['PostToolBatch.json', 'g-main', 'run', 'PostToolBatch', 1],
  ['PostToolBatch.failure.json', 'g-fail', 'run', 'PostToolBatch', 1],
  ['PostToolBatch.denied.json', 'g-deny', 'run', 'PostToolBatch', 1],
  ['MessageDisplay.json', 'g-main', 'run', 'MessageDisplay', 1],
  ['Stop.json', 'g-main', 'run', 'Stop', 1],
  ['Stop.after-block.json', 'g-main', 'run', 'Stop', 2],
  ['Stop.no-effort.json', 'g-no-effort', 'run', 'Stop', 1],
  ['SubagentStart.json', 'g-subagent', 'run', 'SubagentStart', 1],
  ['SubagentStop.json', 'g-subagent', 'run', 'SubagentStop', 1],
  ['SubagentStop.compact.json', 'g-compact', 'compact', 'SubagentStop', 1],
  ['PreCompact.json', 'g-compact', 'compact', 'PreCompact', 1],
  ['PostCompact.json', 'g-compact', 'compact', 'PostCompact', 1],
  ['SessionEnd.json', 'g-main', 'run', 'SessionEnd', 1],
]

/** Variables Claude Code sets for its hooks (spec §4) that the fixtures keep, with normalized values. */
const ENV_NAMES = [
  'AI_AGENT',
  'CLAUDECODE',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'CLAUDE_CODE_SESSION_ATTENDED',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_EFFORT',
  'CLAUDE_ENV_FILE',
  'CLAUDE_PID',
  'CLAUDE_PROJECT_DIR',
  'COREPACK_ENABLE_AUTO_PIN',
  'NoDefaultCurrentDirectoryInExePath',
]

const args = process.argv.slice(2)
const dryRun = args.includes('--dry-run')
const outArg = args.indexOf('--out')

const probe = probeClaude()
if (!probe.ok) {
  console.log(
    `skipped: real Claude Code not installed (npm ci installs the pinned one; or run shared/real-clients/install.sh): ${probe.reason}`,
  )
  process.exit(0)
}
if (probe.warning) console.log(`warning: ${probe.warning}`)
const OUT = outArg >= 0 ? args[outArg + 1] : makeTempRoot('claude-code-golden-')
mkdirSync(OUT, { recursive: true })
console.log(`capturing golden payloads with ${probe.version} into ${OUT}`)

function runCli(out, step, modeDir) {
  const extra = []
  if (step.resume) extra.push('--resume', sessionIdOf(join(out, step.resume)))
  return new Promise((resolve) => {
    const child = spawn(runCliScript(), [step.run, step.prompt, ...step.args, ...extra], {
      env: scriptEnv({ OUT: out, HOOK_MODE: modeDir, HOOK_SH: hookScript(), CLAUDE_TIMEOUT: '90' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('close', (code) => resolve({ code, output: output.trim() }))
  })
}

/** The session id from the `system/init` frame of a run's stream.jsonl. */
function sessionIdOf(runDir) {
  for (const line of readText(join(runDir, 'stream.jsonl')).split('\n')) {
    if (!line.includes('"init"')) continue
    const m = JSON.parse(line)
    if (m.type === 'system' && m.subtype === 'init') return m.session_id
  }
  throw new Error(`no session id in ${runDir}/stream.jsonl`)
}

const runs = {}
await Promise.all(
  CASES.map(async (c) => {
    const out = join(OUT, c.name)
    const modeDir = c.mode ? join(modesDir(), c.mode) : join(out, 'no-modes')
    mkdirSync(out, { recursive: true })
    if (!c.mode) mkdirSync(modeDir, { recursive: true })
    for (const step of c.steps) {
      const r = await runCli(out, step, modeDir)
      console.log(`ran ${c.name}/${step.run}: ${r.output.split('\n').at(-1)}`)
      runs[`${c.name}/${step.run}`] = { out, dir: join(out, step.run), calls: collectHookCalls(join(out, step.run)) }
    }
  }),
)

// ---- normalization: the exact bytes, with machine- and run-specific values replaced by placeholders
const munge = (path) => path.replace(/[^A-Za-z0-9]/g, '-')

/** [value, placeholder] pairs for one OUT; `forEnv` adds the process values (pid, token) that only env values may contain. */
function placeholdersFor(run, { forEnv = false } = {}) {
  const proj = join(run.out, 'state', 'proj')
  const config = join(run.out, 'state', 'config')
  const ids = new Map()
  // ids from every call of this OUT's runs, so the same id gets the same placeholder in all files
  for (const [key, r] of Object.entries(runs)) {
    if (r.out !== run.out) continue
    for (const call of r.calls) {
      let p
      try {
        p = JSON.parse(call.stdin)
      } catch {
        continue
      }
      const add = (value, name) => {
        if (typeof value === 'string' && value && !ids.has(value)) ids.set(value, name)
      }
      add(p.transcript_path, '<TRANSCRIPT>')
      add(p.agent_transcript_path, '<AGENT_TRANSCRIPT>')
      add(p.session_id, '<SESSION_ID>')
      add(p.prompt_id, key.endsWith('/first') ? '<FIRST_PROMPT_ID>' : '<PROMPT_ID>')
      add(p.agent_id, '<AGENT_ID>')
      add(p.turn_id, '<TURN_ID>')
      add(p.message_id, '<MESSAGE_ID>')
      for (const t of p.background_tasks ?? []) add(t?.id, '<AGENT_ID>')
      if (forEnv) {
        add(call.env.CLAUDE_CODE_MESSAGING_TOKEN, '<MESSAGING_TOKEN>')
        add(call.env.CLAUDE_CODE_MESSAGING_SOCKET?.replace(/^.*\/(\d+)\.sock$/, '/$1.sock'), '/<CLAUDE_PID>.sock')
        if (call.env.CLAUDE_PID) ids.set(`=${call.env.CLAUDE_PID}`, '=<CLAUDE_PID>')
      }
    }
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  // longest first; paths before the ids they contain
  return [
    ...[...ids].filter(([v]) => v.includes('/')),
    [proj, '<PROJECT>'],
    [config, '<CONFIG>'],
    [munge(proj), '<MUNGED_PROJECT>'],
    ...(uid === undefined ? [] : [[`/claude-${uid}/`, '/claude-<UID>/']]),
    ...[...ids].filter(([v]) => !v.includes('/')),
  ].sort((a, b) => b[0].length - a[0].length)
}

/** Volatile numbers become bare tokens: the stdin is JSON again once they are substituted. */
const VOLATILE_NUMBERS = [
  ['duration_ms', '<DURATION_MS>'],
  ['seconds_since_last_response', '<SECONDS_SINCE_LAST_RESPONSE>'],
]

function normalize(text, map) {
  let out = text
  for (const [from, to] of map) out = out.replaceAll(from, to)
  return out
}

const written = []
const missing = []
for (const [file, caseName, runName, event, nth, filter] of PICKS) {
  const run = runs[`${caseName}/${runName}`]
  const calls = (run?.calls ?? []).filter((c) => c.event === event && c.tag === 'main' && (!filter || filter(JSON.parse(c.stdin))))
  const call = calls[nth - 1]
  if (!call) {
    missing.push(`${file}: ${caseName}/${runName} has ${calls.length} ${event} call(s) with tag main`)
    continue
  }
  const map = placeholdersFor(run)
  let stdin = normalize(call.stdin, map)
  for (const [key, token] of VOLATILE_NUMBERS) stdin = stdin.replace(new RegExp(`("${key}":)(-?\\d+(?:\\.\\d+)?)`, 'g'), `$1${token}`)
  // inside a task notification's text: <duration_ms>N</duration_ms>
  stdin = stdin.replace(/<duration_ms>\d+<\/duration_ms>/g, '<duration_ms><DURATION_MS></duration_ms>')
  const envMap = placeholdersFor(run, { forEnv: true })
  const env = {}
  // `=<pid>` matches the whole CLAUDE_PID value only
  for (const name of ENV_NAMES) if (name in call.env) env[name] = normalize(`=${call.env[name]}`, envMap).slice(1)
  const cwd = normalize(call.cwd ?? '', map)
  const used = new Set([stdin, cwd, ...Object.values(env)].flatMap((t) => t.match(/<[A-Z][A-Z_]*>/g) ?? []))
  const fixture = {
    stdin,
    env,
    cwd,
    captured: `Claude Code ${CLAUDE_VERSION}, run ${caseName}/${runName} (${event} #${nth}, tag main)`,
    placeholders: [...used].sort(),
  }
  if (!dryRun) writeFileSync(join(GOLDEN_DIR, file), `${JSON.stringify(fixture, null, 2)}\n`)
  written.push(file)
}
/** Start order (hook.sh names each capture `<ns>-<Event>-<tag>`). */
const startNs = (call) => BigInt(basename(call.base).split('-')[0])
const sequences = Object.fromEntries(
  Object.entries(runs)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, r]) => [
      key,
      r.calls
        .filter((c) => c.tag === 'main')
        .sort((a, b) => (startNs(a) < startNs(b) ? -1 : 1))
        .map((c) =>
          c.event === 'SessionStart' || c.event === 'SessionEnd'
            ? `${c.event}(${JSON.parse(c.stdin).source ?? JSON.parse(c.stdin).reason})`
            : c.event,
        ),
    ]),
)
if (!dryRun) {
  mkdirSync(GOLDEN_DIR, { recursive: true })
  writeFileSync(
    join(GOLDEN_DIR, 'runs.json'),
    `${JSON.stringify({ claudeCode: probe.version, capturedAt: new Date().toISOString().slice(0, 10), hookSequences: sequences }, null, 2)}\n`,
  )
}
for (const m of missing) console.log(`MISSING ${m}`)
console.log(`wrote ${written.length} fixtures${dryRun ? ' (dry run: nothing written)' : ` to ${GOLDEN_DIR}`}: ${written.join(' ')}`)
console.log(`raw captures kept in ${OUT} (${readdirSync(OUT).join(' ')})`)
if (missing.length || !existsSync(GOLDEN_DIR)) process.exit(1)
