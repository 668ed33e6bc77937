// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is hook configuration text, never a template.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ExecProcessRunner, LauncherProcessRunner } from '@harness-kernel/kernel'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { commandSpecOf, type HandlerRunSpec, hookEnv, runHandler } from '../src/run/index.js'
import type { CommandHandler } from '../src/types.js'
import { commandHandler, readText, stdin, tempDir, writeScript } from './fixtures/run/helpers.js'
import { processAlive, waitUntil } from './waits.js'

// Every block runs with this process's runner and with the kernel's default, the process launcher.
const runners = [
  { name: 'ExecProcessRunner', runner: new ExecProcessRunner() },
  { name: 'LauncherProcessRunner', runner: new LauncherProcessRunner() },
]
let services = { processRunner: runners[0]!.runner }
const dir = tempDir('cc-run-command-')
const project = join(dir.path, 'project')
const cwd = join(project, 'sub')
mkdirSync(cwd, { recursive: true })
afterAll(() => dir.cleanup())

const env = hookEnv({ projectDir: project, sessionId: 'sess-1', event: 'PreToolUse', effort: 'medium' })

function spec(handler: CommandHandler, fields: Partial<HandlerRunSpec> = {}): HandlerRunSpec {
  return { handler, stdin, cwd, env, timeoutMs: 10_000, ...fields }
}

function run(command: string, fields: Partial<CommandHandler> = {}, specFields: Partial<HandlerRunSpec> = {}) {
  return runHandler(services, spec(commandHandler(command, fields), specFields))
}

describe.each(runners)('$name: command handlers: process', ({ runner }) => {
  beforeAll(() => {
    services = { processRunner: runner }
  })

  it('runs the string with `/bin/sh -c`, exactly as configured', async () => {
    const command = `tr '\\000' '\\n' < /proc/$$/cmdline;  echo "[$0]"`
    const result = await run(command)
    expect(result.kind).toBe('command')
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe(`/bin/sh\n-c\n${command}\n[/bin/sh]\n`)
  })

  it('uses /bin/bash for shell "bash"', async () => {
    const result = await run('echo "$0 ${BASH_VERSION:+is-bash}"', { shell: 'bash' })
    expect(result.stdout).toBe('/bin/bash is-bash\n')
  })

  it.skipIf(existsSync('/usr/bin/pwsh') || existsSync('/usr/local/bin/pwsh'))(
    'reports a missing PowerShell as a spawn error, not a block',
    async () => {
      const result = await run('Write-Output hi', { shell: 'powershell' })
      expect(result.exitCode).toBeNull()
      expect(result.error).toBe('command not found: pwsh (ENOENT)')
    },
  )

  it('writes the exact stdin bytes, then closes stdin', async () => {
    const hex = await run("od -An -tx1 | tr -d ' \\n'")
    expect(hex.stdout).toBe(Buffer.from(stdin, 'utf8').toString('hex'))
    const eof = await run('cat; echo EOF-SEEN')
    expect(eof.stdout).toBe(`${stdin}EOF-SEEN\n`)
  })

  it('runs in the given cwd', async () => {
    const result = await run('pwd')
    expect(result.stdout).toBe(`${cwd}\n`)
  })

  it('captures stdout and stderr separately, with the exit code', async () => {
    const result = await run('echo out; echo err >&2; exit 2')
    expect(result).toMatchObject({ exitCode: 2, stdout: 'out\n', stderr: 'err\n', timedOut: false, aborted: false })
    expect(result.error).toBeUndefined()
  })

  it('reports a process killed by a signal', async () => {
    const result = await run('kill -KILL $$')
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', error: 'killed by SIGKILL' })
  })

  it('reports a cwd that does not exist as a spawn error', async () => {
    const result = await run('true', {}, { cwd: join(dir.path, 'missing') })
    expect(result.exitCode).toBeNull()
    expect(result.error).toBe(`cwd does not exist: ${join(dir.path, 'missing')} (ENOENT)`)
  })
})

describe.each(runners)('$name: command handlers: environment', ({ runner }) => {
  beforeAll(() => {
    services = { processRunner: runner }
  })

  const saved = { ...process.env }
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
    Object.assign(process.env, saved)
  })

  function parseEnv(text: string): Map<string, string> {
    const entries = text.split('\0').filter(Boolean)
    return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]))
  }

  it('sets the Claude Code variables and strips OTEL_* and inherited Claude process variables', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://collector'
    process.env.CLAUDE_PID = '4242'
    process.env.CLAUDE_ENV_FILE = '/outer/env-file'
    process.env.HK_KEPT_VARIABLE = 'kept'
    const childEnv = hookEnv({ projectDir: project, sessionId: 'sess-1', event: 'PreToolUse', effort: 'medium' })
    const result = await run('env -0', {}, { env: childEnv })
    const seen = parseEnv(result.stdout)
    expect(seen.get('CLAUDE_PROJECT_DIR')).toBe(project)
    expect(seen.get('CLAUDECODE')).toBe('1')
    expect(seen.get('CLAUDE_CODE_ENTRYPOINT')).toBe('harness-kernel')
    expect(seen.get('CLAUDE_CODE_SESSION_ID')).toBe('sess-1')
    expect(seen.get('AI_AGENT')).toBe('harness-kernel')
    expect(seen.get('CLAUDE_EFFORT')).toBe('medium')
    expect(seen.get('HK_KEPT_VARIABLE')).toBe('kept')
    expect([...seen.keys()].filter((name) => name.startsWith('OTEL_'))).toEqual([])
    for (const absent of ['CLAUDE_PID', 'CLAUDE_ENV_FILE', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA', 'CLAUDE_CODE_MESSAGING_SOCKET']) {
      expect(seen.has(absent), absent).toBe(false)
    }
  })

  it('gives SessionStart hooks CLAUDE_ENV_FILE and plugin hooks their root and data dirs, without CLAUDE_EFFORT', async () => {
    const plugin = { root: join(dir.path, 'plugin root'), data: join(dir.path, 'plugin-data') }
    const childEnv = hookEnv({ projectDir: project, sessionId: 's', event: 'SessionStart', effort: 'high', envFile: '/x/env.sh', plugin })
    const result = await run('env -0', {}, { env: childEnv })
    const seen = parseEnv(result.stdout)
    expect(seen.get('CLAUDE_ENV_FILE')).toBe('/x/env.sh')
    expect(seen.get('CLAUDE_PLUGIN_ROOT')).toBe(plugin.root)
    expect(seen.get('CLAUDE_PLUGIN_DATA')).toBe(plugin.data)
    expect(seen.has('CLAUDE_EFFORT')).toBe(false)
  })

  it('passes ${CLAUDE_PROJECT_DIR} to the shell unrewritten: the shell expands it', async () => {
    writeScript(join(project, '.claude/hooks/where.sh'), 'echo "script=$0 arg=$1"')
    const command = `"\${CLAUDE_PROJECT_DIR}"/.claude/hooks/where.sh "$CLAUDE_PROJECT_DIR"; echo '\${CLAUDE_PROJECT_DIR}'`
    const handler = commandHandler(command)
    expect(commandSpecOf(handler, spec(handler)).command).toBe(command)
    const result = await runHandler(services, spec(handler))
    expect(result.stdout).toBe(`script=${project}/.claude/hooks/where.sh arg=${project}\n\${CLAUDE_PROJECT_DIR}\n`)
  })
})

describe.each(runners)('$name: command handlers: exec form', ({ runner }) => {
  beforeAll(() => {
    services = { processRunner: runner }
  })

  const printArgs = writeScript(join(project, 'bin/print-args.sh'), `printf '%s\\n' "$0" "$@"`)

  it('spawns the command with literal arguments and no shell', async () => {
    const args = ['$ARGUMENTS', '`id`', "it's", 'a  b', '$(echo no)', '$HOME', '*']
    const result = await run(printArgs, { args })
    expect(result.stdout).toBe(`${[printArgs, ...args].join('\n')}\n`)
  })

  it('substitutes only the braced path placeholders, into the command and each argument', async () => {
    const plugin = { root: join(dir.path, 'plugin root'), data: join(dir.path, 'data') }
    const childEnv = hookEnv({ projectDir: project, sessionId: 's', event: 'PreToolUse', plugin })
    const args = ['${CLAUDE_PLUGIN_ROOT}/x', '${CLAUDE_PLUGIN_DATA}', '$CLAUDE_PROJECT_DIR', '${HOME}', '${CLAUDE_PROJECT_DIR}']
    const result = await run('${CLAUDE_PROJECT_DIR}/bin/print-args.sh', { args }, { env: childEnv })
    expect(result.stdout.split('\n').slice(0, -1)).toEqual([
      printArgs,
      `${plugin.root}/x`,
      plugin.data,
      '$CLAUDE_PROJECT_DIR',
      '${HOME}',
      project,
    ])
  })

  it('ignores `shell` in exec form', async () => {
    const result = await run(printArgs, { args: ['one'], shell: 'powershell' })
    expect(result.stdout).toBe(`${printArgs}\none\n`)
  })

  it('reports a missing executable as a spawn error', async () => {
    const result = await run(join(dir.path, 'no-such-hook'), { args: [] })
    expect(result.exitCode).toBeNull()
    expect(result.error).toBe(`command not found: ${join(dir.path, 'no-such-hook')} (ENOENT)`)
  })
})

describe.each(runners)('$name: command handlers: timeout and abort', ({ name: variant, runner }) => {
  beforeAll(() => {
    services = { processRunner: runner }
  })

  const pids = (name: string) =>
    ['sh', 'a', 'b'].map((which) => Number(readFileSync(join(dir.path, `${name}.${which}.pid`), 'utf8').trim()))
  const backgrounded = (name: string) =>
    `echo $$ > ${name}.sh.pid; sleep 30 & echo $! > ${name}.a.pid; sleep 30 & echo $! > ${name}.b.pid; wait`

  it('kills the whole process group on timeout, with no decision', async () => {
    // Long enough for the shell to start both children and write the pids first, even on a loaded machine.
    const result = await run(backgrounded(`timeout-${variant}`), {}, { cwd: dir.path, timeoutMs: 1000 })
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false, error: 'timed out after 1000 ms' })
    const started = pids(`timeout-${variant}`)
    await waitUntil(() => started.every((pid) => !processAlive(pid)), 'the timed-out group to exit')
    for (const pid of started) expect(processAlive(pid)).toBe(false)
  })

  it('kills the whole process group when the signal aborts', async () => {
    const controller = new AbortController()
    const running = run(backgrounded(`abort-${variant}`), {}, { cwd: dir.path, signal: controller.signal })
    await waitUntil(
      () => existsSync(join(dir.path, `abort-${variant}.b.pid`)) && readText(join(dir.path, `abort-${variant}.b.pid`)).trim() !== '',
      'the children to start',
    )
    controller.abort()
    const result = await running
    expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: true, error: 'aborted' })
    const started = pids(`abort-${variant}`)
    await waitUntil(() => started.every((pid) => !processAlive(pid)), 'the aborted group to exit')
    for (const pid of started) expect(processAlive(pid)).toBe(false)
  })
})
