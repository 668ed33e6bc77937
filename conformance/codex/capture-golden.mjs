#!/usr/bin/env node
// Re-records the golden hook payloads in dialects/codex/test/fixtures/golden/ from the real
// Codex CLI (see that folder's README.md): the pinned one `npm ci` installs, or CODEX_BIN, or
// shared/real-clients/install.sh's (../lib/pinned-clients.mjs); downloads nothing. Usage: node conformance/codex/capture-golden.mjs [--out DIR] [--dry-run]
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { findCodex } from '../lib/pinned-clients.mjs'
import { collectHookCalls, readCodexRequests, runCase, writeCaseDir } from './lib/codex-case.mjs'
import { cleanEnv, GOLDEN_DIR, HOOK_SCRIPT, makeTempRoot, probeCodex, REPO_ROOT, realClientsDir, realClientsHome } from './lib/env.mjs'
import { ALL_EVENTS, delayed, withUsage } from './lib/kit.mjs'

// The probe runs in the `bash -c` shell Codex starts, before the recorder: it saves that shell's
// $0, $-, $#, login-shell flag, argv and exact initial environ (/proc/$$/environ), and those of
// its parent (the native codex) and grandparent (the npm launcher, node). It reads no stdin.
function probeCommand(event) {
  return [
    'P="$HOOK_OUT/probe-$$"',
    `printf '%s\\n' "dollar0=$0" "flags=$-" "argc=$#" "ppid=$PPID" > "$P.sh"`,
    '{ shopt -q login_shell && echo login=yes || echo login=no; } >> "$P.sh"',
    'cat /proc/$$/cmdline > "$P.cmdline"',
    'cat /proc/$$/environ > "$P.environ"',
    'cat /proc/$PPID/cmdline > "$P.parent_cmdline"',
    'cat /proc/$PPID/environ > "$P.parent_environ"',
    `GP=$(awk '/^PPid:/{print $2}' /proc/$PPID/status)`,
    'cat /proc/$GP/cmdline > "$P.gparent_cmdline"',
    'cat /proc/$GP/environ > "$P.gparent_environ"',
    `@HOOK@ ${event} h`,
  ].join('; ')
}

const allHooks = (events = ALL_EVENTS) => ({
  // SessionEnd and Interrupt clamp timeouts above 3 s (with a warning), so they get 3.
  hooks: Object.fromEntries(
    events.map((e) => [
      e,
      [{ hooks: [{ type: 'command', command: probeCommand(e), timeout: e === 'SessionEnd' || e === 'Interrupt' ? 3 : 30 }] }],
    ]),
  ),
})

const STOP_BLOCK = { 'Stop.1.stdout': '{"decision":"block","reason":"keep going"}' }
const SUBPLAN = {
  root: [
    { kind: 'call', name: 'spawn_agent', namespace: 'multi_agent_v1', args: { message: 'sub task: run echo' } },
    delayed(3000, { kind: 'message', text: 'Root done.' }),
  ],
  sub: [{ kind: 'auto', cmd: 'echo from-sub', text: 'Sub done.' }],
}
const PERMPLAN = [
  {
    kind: 'call',
    name: 'exec_command',
    args: {
      cmd: 'touch created-by-escalated && echo escalated-ok',
      sandbox_permissions: 'require_escalated',
      justification: 'need to write a file',
    },
  },
  { kind: 'message', text: 'All done.' },
]

/** The cases; `mode` is informational (run-case.sh picks app-server mode when `app` is set). */
const CASES = [
  {
    name: 'g-main',
    mode: 'exec',
    plan: [
      { kind: 'tool', cmd: 'echo hello-from-tool' },
      { kind: 'tool', cmd: 'echo out-line; echo err-line >&2; exit 3' },
      { kind: 'message', text: 'First answer.' },
      { kind: 'message', text: 'Second answer.' },
    ],
    hooks: allHooks(),
    handlers: STOP_BLOCK,
    prompt: 'run the tool',
    resume: { prompt: 'resumed prompt', plan: [{ kind: 'message', text: 'Resumed answer.' }] },
  },
  { name: 'g-subagent', mode: 'exec', plan: SUBPLAN, hooks: allHooks(), prompt: 'run the tool' },
  {
    name: 'g-compact-auto',
    mode: 'exec',
    plan: {
      compaction: [{ kind: 'message', text: 'SUMMARY-AUTO' }],
      root: [withUsage(5000, { kind: 'tool', cmd: 'echo hello-from-tool' }), { kind: 'auto', cmd: 'echo hello-from-tool' }],
    },
    hooks: allHooks(),
    configExtra: 'model_auto_compact_token_limit = 1000',
    prompt: 'run the tool',
  },
  {
    name: 'g-compact-manual',
    mode: 'app',
    plan: { compaction: [{ kind: 'message', text: 'SUMMARY-OF-EARLIER-WORK' }], root: [{ kind: 'auto', cmd: 'echo hello-from-tool' }] },
    hooks: allHooks(),
    app: { steps: [{ op: 'turn', text: 'run the tool' }, { op: 'compact' }, { op: 'turn', text: 'second turn' }] },
  },
  {
    name: 'g-permission',
    mode: 'app',
    plan: PERMPLAN,
    hooks: allHooks(),
    app: { steps: [{ op: 'turn', text: 'run the tool' }], approval: 'accept' },
    env: { APPROVAL: 'on-request', SANDBOX: 'read-only' },
  },
  {
    name: 'g-interrupt',
    mode: 'app',
    plan: [delayed(4000, { kind: 'message', text: 'slow answer' })],
    hooks: allHooks(),
    app: {
      steps: [
        { op: 'turn_interrupt', text: 'run the tool', after_ms: 1500 },
        { op: 'sleep', ms: 1000 },
      ],
    },
  },
]

/**
 * Which captured call becomes which fixture: [file, case, event, nth call of that event (1-based), filter?].
 * The first file per event is `<Event>.json`; the others are variants.
 */
const PICKS = [
  ['SessionStart.json', 'g-main', 'SessionStart', 1],
  ['SessionStart.resume.json', 'g-main', 'SessionStart', 2],
  ['SessionStart.compact.json', 'g-compact-manual', 'SessionStart', 2],
  ['UserPromptSubmit.json', 'g-main', 'UserPromptSubmit', 1],
  ['PreToolUse.json', 'g-main', 'PreToolUse', 1],
  ['PreToolUse.subagent.json', 'g-subagent', 'PreToolUse', 1, (p) => 'agent_id' in p],
  ['PermissionRequest.json', 'g-permission', 'PermissionRequest', 1],
  ['PostToolUse.json', 'g-main', 'PostToolUse', 1],
  ['PostToolUse.stdout-stderr-exit3.json', 'g-main', 'PostToolUse', 2],
  ['PreCompact.json', 'g-compact-manual', 'PreCompact', 1],
  ['PreCompact.auto.json', 'g-compact-auto', 'PreCompact', 1],
  ['PostCompact.json', 'g-compact-manual', 'PostCompact', 1],
  ['PostCompact.auto.json', 'g-compact-auto', 'PostCompact', 1],
  ['SubagentStart.json', 'g-subagent', 'SubagentStart', 1],
  ['SubagentStop.json', 'g-subagent', 'SubagentStop', 1],
  ['Stop.json', 'g-main', 'Stop', 1],
  ['Stop.after-block.json', 'g-main', 'Stop', 2],
  ['SessionEnd.json', 'g-main', 'SessionEnd', 1],
  ['SessionEnd.app-server.json', 'g-interrupt', 'SessionEnd', 1],
  ['Interrupt.json', 'g-interrupt', 'Interrupt', 1],
]

const args = process.argv.slice(2)
const dryRun = args.includes('--dry-run')
const outArg = args.indexOf('--out')

const probe = probeCodex()
// process.json records the process tree a user's `codex` makes: through the npm launcher of the install probed, where it has one
const CODEX = findCodex().launcher ?? probe.bin
if (!probe.ok) {
  console.log(`skipped: real Codex not installed (npm ci installs the pinned one; or run shared/real-clients/install.sh): ${probe.reason}`)
  process.exit(0)
}
if (probe.warning) console.log(`warning: ${probe.warning}`)
const OUT = outArg >= 0 ? args[outArg + 1] : makeTempRoot('codex-golden-')
mkdirSync(OUT, { recursive: true })
console.log(`capturing golden payloads with ${probe.version} into ${OUT}`)

const runs = {}
await Promise.all(
  CASES.map(async (c) => {
    const dir = join(OUT, c.name)
    writeCaseDir(dir, c)
    const r = await runCase(dir, OUT, { env: { ...c.env, CODEX_BIN: CODEX } })
    if (c.resume) await runResume(dir, c.resume)
    runs[c.name] = { dir, rc: readFileSync(join(dir, 'codex.rc'), 'utf8').trim(), calls: collectHookCalls(join(dir, 'out')) }
    console.log(`ran ${c.name} (${c.mode}${c.resume ? ' + exec resume' : ''}): ${r.stdout.trim()}`)
  }),
)

/**
 * `codex exec resume --last` in the same CODEX_HOME, the way run-case.sh runs exec mode (same env,
 * a fresh fake server). run-case.sh cannot do this itself: it wipes home/ before every run.
 */
async function runResume(dir, resume) {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(resume.plan))
  const portFile = join(dir, '.port-resume')
  const server = spawn('node', [join(realClientsDir(), 'codex', 'fake-responses-server.mjs')], {
    env: { ...process.env, PORT: '0', PORT_FILE: portFile, LOG: join(dir, 'requests-resume.jsonl'), PLAN: join(dir, 'plan.json') },
    stdio: 'ignore',
  })
  try {
    for (let i = 0; i < 100 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 100))
    const port = readFileSync(portFile, 'utf8').trim()
    const env = cleanEnv({
      CODEX_HOME: join(dir, 'home'),
      FAKE_API_KEY: 'dummy-key',
      HOOK_OUT: join(dir, 'out'),
      HOOK_RESP: join(dir, 'responses'),
      TMPDIR: join(dir, 'tmp'),
    })
    delete env.REAL_CLIENTS_HOME
    delete env.CODEX_BIN
    const codexArgs = [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      '-c',
      `model_providers.fake.base_url="http://127.0.0.1:${port}/v1"`,
    ]
    await new Promise((resolve) => {
      const child = spawn(CODEX, [...codexArgs, 'resume', '--last', resume.prompt], {
        cwd: join(dir, 'cwd'),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (d) => {
        stderr += d
      })
      child.on('close', (code) => {
        writeFileSync(join(dir, 'codex-resume.stderr'), stderr)
        writeFileSync(join(dir, 'codex-resume.rc'), `${code}\n`)
        resolve()
      })
    })
  } finally {
    server.kill('SIGTERM')
  }
}

// ---- normalization: exact stdin bytes, only machine-specific path prefixes replaced
function pathMap(dir) {
  return [
    [join(dir, 'home'), '<CODEX_HOME>'],
    [join(dir, 'cwd'), '<CWD>'],
    [join(dir, 'tmp'), '<TMPDIR>'],
    [join(dir, 'out'), '<HOOK_OUT>'],
    [join(dir, 'responses'), '<HOOK_RESP>'],
    [HOOK_SCRIPT, '<HOOK_SH>'],
    [dir, '<CASE>'],
    [realClientsHome(), '<REAL_CLIENTS_HOME>'],
    [REPO_ROOT, '<REPO>'],
  ]
}
const normalizeText = (text, dir) => pathMap(dir).reduce((s, [from, to]) => s.replaceAll(from, to), text)

const readEnviron = (file) => {
  const env = new Map()
  if (!existsSync(file)) return env
  for (const entry of readFileSync(file, 'latin1').split('\0')) {
    const i = entry.indexOf('=')
    if (i > 0) env.set(entry.slice(0, i), entry.slice(i + 1))
  }
  return env
}
/** Names only (values are machine-specific), except PATH: the entries prepended, normalized. */
function envDiff(child, parent, dir) {
  const added = [...child.keys()].filter((k) => !parent.has(k)).sort()
  const removed = [...parent.keys()].filter((k) => !child.has(k)).sort()
  const changed = [...child.keys()].filter((k) => parent.has(k) && parent.get(k) !== child.get(k)).sort()
  const diff = { added, removed, changed }
  const [cp, pp] = [child.get('PATH') ?? '', parent.get('PATH') ?? '']
  if (cp !== pp && cp.endsWith(`:${pp}`)) {
    diff.pathPrepended = cp
      .slice(0, -pp.length - 1)
      .split(':')
      .map((e) => normalizeText(e, dir).replace(/codex-arg0[A-Za-z0-9]+$/, 'codex-arg0<RANDOM>'))
  }
  return diff
}
const argvOf = (file, dir) =>
  existsSync(file)
    ? readFileSync(file, 'latin1')
        .split('\0')
        .filter((a, i, all) => i < all.length - 1 || a !== '')
        .map((a) => normalizeText(a, dir))
    : null

function processFacts(run, call) {
  // bash execs the last command of `-c` in place, so hook.sh usually has the probe's pid.
  const probeBase = [call.meta.pid, call.meta.ppid].map((pid) => join(run.dir, 'out', `probe-${pid}`)).find((b) => existsSync(`${b}.sh`))
  if (!probeBase) throw new Error(`no probe output for ${call.base}`)
  const sh = existsSync(`${probeBase}.sh`)
    ? Object.fromEntries(
        readFileSync(`${probeBase}.sh`, 'utf8')
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      )
    : {}
  const hookEnv = readEnviron(`${probeBase}.environ`)
  const codexEnv = readEnviron(`${probeBase}.parent_environ`)
  const launcherEnv = readEnviron(`${probeBase}.gparent_environ`)
  const stdin = Buffer.from(call.stdin, 'utf8')
  return {
    shell: {
      argv: argvOf(`${probeBase}.cmdline`, run.dir),
      dollar0: sh.dollar0,
      flags: sh.flags,
      argc: Number(sh.argc),
      loginShell: sh.login === 'yes',
    },
    parentArgv: argvOf(`${probeBase}.parent_cmdline`, run.dir),
    launcherArgv: argvOf(`${probeBase}.gparent_cmdline`, run.dir),
    cwd: normalizeText(call.meta.cwd ?? '', run.dir),
    stdin: {
      lastByte: stdin.length ? String.fromCharCode(stdin[stdin.length - 1]) : null,
      trailingNewline: call.stdin.endsWith('\n'),
      compactJson: JSON.stringify(JSON.parse(call.stdin)) === call.stdin,
    },
    env: {
      vsCodexProcess: envDiff(hookEnv, codexEnv, run.dir),
      vsLauncherProcess: envDiff(hookEnv, launcherEnv, run.dir),
      harnessVariables: ['CODEX_HOME', 'FAKE_API_KEY', 'HOOK_OUT', 'HOOK_RESP', 'TMPDIR'].filter((k) => hookEnv.has(k)),
    },
  }
}

const written = []
const processJson = {}
for (const [file, caseName, event, nth, filter] of PICKS) {
  const run = runs[caseName]
  const calls = run.calls.filter((c) => c.event === event && (!filter || filter(JSON.parse(c.stdin))))
  const call = calls[nth - 1]
  if (!call) {
    console.log(`MISSING ${file}: ${caseName} has ${calls.length} ${event} call(s)`)
    continue
  }
  const text = normalizeText(call.stdin, run.dir)
  JSON.parse(text) // still valid JSON
  if (!dryRun) writeFileSync(join(GOLDEN_DIR, file), text)
  written.push(file)
  processJson[file.replace(/\.json$/, '')] = { case: caseName, ...processFacts(run, call) }
}
const meta = {
  codexVersion: probe.version,
  capturedAt: new Date().toISOString().slice(0, 10),
  cases: Object.fromEntries(
    CASES.map((c) => [
      c.name,
      { mode: c.mode, rc: runs[c.name].rc, hookCalls: runs[c.name].calls.map((x) => `${x.event}#${x.invocation}`) },
    ]),
  ),
}
if (!dryRun) writeFileSync(join(GOLDEN_DIR, 'process.json'), `${JSON.stringify({ ...meta, events: processJson }, null, 2)}\n`)

// Facts worth reading next to the fixtures: the model-visible output of the stdout+stderr command.
const main = runs['g-main']
for (const req of readCodexRequests(main.dir)) {
  for (const item of req.body?.input ?? []) {
    if (item.type === 'function_call_output' && item.call_id === 'call_1') {
      console.log(`g-main request ${req.seq}: function_call_output call_1 = ${JSON.stringify(item.output)}`)
      break
    }
  }
}
console.log(`wrote ${written.length} fixtures${dryRun ? ' (dry run: nothing written)' : ` to ${GOLDEN_DIR}`}: ${written.join(' ')}`)
console.log(`raw captures kept in ${OUT} (${readdirSync(OUT).join(' ')})`)
