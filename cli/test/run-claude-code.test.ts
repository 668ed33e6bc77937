import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createHarness } from '@harness-kernel/cli'
import { type FakeAnthropic, lastUserMessage, mainRequests, startFakeAnthropic } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { isolatedClaudeEnv } from '../../drivers/claude-code/test/support/claude-env.js'
import { harness, project, readEvents, SHELL_SCRIPT, sessionsIn } from './support.js'

/** The fake Messages API replies with this tool call first (as `mcp__host__shell`), then `FINAL reply to request #N`. */
const SHELL_PROMPT = `Run it [[tool:mcp__host__shell:${JSON.stringify({ command: 'echo from-kernel-tool' })}]]`

/** Keys, endpoints and models of the machine's own environment must not reach these runs. */
const NO_KEYS = {
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ANTHROPIC_MODEL: '',
  ANTHROPIC_AUTH_TOKEN: '',
  HARNESS_MODEL: '',
}

const servers: FakeAnthropic[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fake Anthropic server and the environment that points Claude Code at it (private config dir and HOME). */
async function fakeClaude(): Promise<{ server: FakeAnthropic; env: Record<string, string> }> {
  const server = await startFakeAnthropic()
  servers.push(server)
  const dir = mkdtempSync(join(tmpdir(), 'harness-cli-claude-'))
  dirs.push(dir)
  return { server, env: { ...NO_KEYS, ...isolatedClaudeEnv({ baseUrl: server.url, dir }) } }
}

/** Runs the shell-tool turn and checks what the kernel and the fake model saw; returns the session log's events. */
async function expectShellTurn(result: { code: number | null; stdout: string; stderr: string }, cwd: string, server: FakeAnthropic) {
  expect(result.stderr).toContain('[turn] completed')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/^FINAL reply to request #\d+\n$/)
  expect(result.stderr).toContain('[tool] shell {"command":"echo from-kernel-tool"}')
  expect(result.stderr).toContain('[tool] shell ok: from-kernel-tool')
  expect(result.stderr).toMatch(/\[driver\] claude-code session \S+/)
  const main = mainRequests(server)
  expect(main.length).toBe(2)
  expect(JSON.stringify(lastUserMessage(main[1]!))).toContain('from-kernel-tool')
  const [id] = sessionsIn(join(cwd, '.harness/sessions'))
  expect(id).toBeDefined()
  const events = readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`))
  expect(events.find((event) => event.type === 'driver/session')).toMatchObject({ driver: 'claude-code', nativeId: expect.any(String) })
  expect(events.find((event) => event.type === 'tool/call')).toMatchObject({ name: 'shell', decision: 'allow' })
  expect(events.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'from-kernel-tool', isError: false })
  expect(events.filter((event) => event.type === 'turn/end')).toEqual([expect.objectContaining({ status: 'completed' })])
  return events
}

describe('harness run --driver claude-code', () => {
  it('runs the turn inside Claude Code without a model: the kernel shell tool, the final text, a driver/session event', async () => {
    const { server, env } = await fakeClaude()
    const cwd = project()
    const result = await harness(['run', '--driver', 'claude-code', SHELL_PROMPT], { cwd, env })
    await expectShellTurn(result, cwd, server)
    // Claude Code's own default model: no --model, no ANTHROPIC_MODEL.
    expect(mainRequests(server)[0]!.body.model).toMatch(/^claude-/)
  }, 60_000)

  it('a config with driver: "claude-code" runs the same; --driver native overrides it (and then needs a model)', async () => {
    const { server, env } = await fakeClaude()
    const cwd = project({ 'harness.config.mjs': "export default { driver: 'claude-code' }\n" })
    const result = await harness(['run', SHELL_PROMPT], { cwd, env })
    await expectShellTurn(result, cwd, server)

    const native = await harness(['run', 'hello', '--driver', 'native'], { cwd, env })
    expect(native.code).toBe(2)
    expect(native.stderr).toContain('harness: no model: pass --model')
    expect(mainRequests(server)).toHaveLength(2)
  }, 60_000)

  it('--model NAME is Claude Code’s model (anthropic:NAME too); another provider’s spec is refused with exit 2', async () => {
    const { server, env } = await fakeClaude()
    const cwd = project()
    // The refused run (no Claude Code starts) goes beside the two that run Claude Code, one after the other.
    const refused = harness(['run', '--driver', 'claude-code', '--model', 'scripted:script.yaml', 'hello'], { cwd, env })
    const named = await harness(['run', '--driver', 'claude-code', '--model', 'claude-test-model', 'hello'], { cwd, env })
    expect(named.code).toBe(0)
    expect(named.stdout).toMatch(/^FINAL reply to request #\d+\n$/)
    expect(mainRequests(server).map((request) => request.body.model)).toEqual(['claude-test-model'])

    const prefixed = await harness(['run', '--driver', 'claude-code', '--model', 'anthropic:claude-other-model', 'hello'], { cwd, env })
    expect(prefixed.code).toBe(0)
    expect(mainRequests(server).at(-1)!.body.model).toBe('claude-other-model')

    const wrong = await refused
    expect(wrong.code).toBe(2)
    expect(wrong.stdout).toBe('')
    expect(wrong.stderr).toContain(
      'harness: --model "scripted:script.yaml" names the scripted provider, but the claude-code driver runs Claude Code, which brings its own model',
    )
    expect(mainRequests(server)).toHaveLength(2)
  }, 60_000)

  it('--resume continues Claude Code’s own session: the next turn’s request carries the first turn', async () => {
    const { server, env } = await fakeClaude()
    const cwd = project()
    const first = await harness(['run', '--driver', 'claude-code', '--json', 'remember the word banana'], { cwd, env })
    expect(first.code).toBe(0)
    const { sessionId, transcriptPath } = JSON.parse(first.stdout)
    const second = await harness(['run', '--driver', 'claude-code', '--resume', sessionId, 'what was the word?'], { cwd, env })
    expect(second.code).toBe(0)
    expect(second.stderr).toContain(`[session] resumed ${sessionId}`)
    const last = JSON.stringify(mainRequests(server).at(-1)!.body.messages)
    expect(last).toContain('remember the word banana')
    expect(last).toContain('what was the word?')
    const events = readEvents(transcriptPath)
    const native = events.filter((event) => event.type === 'driver/session')
    expect(native).toHaveLength(1)
    expect(events.filter((event) => event.type === 'turn/end').map((event) => event.type === 'turn/end' && event.status)).toEqual([
      'completed',
      'completed',
    ])
  }, 60_000)

  it.each([
    ['run', ['run', 'hello', '--driver', 'nope']],
    ['app-server', ['app-server', '--driver', 'nope']],
  ])('%s --driver nope exits 2 and names the drivers', async (_command, args) => {
    const result = await harness(args, { cwd: project() })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    const lines = result.stderr.split('\n')
    expect(lines[0]).toBe('harness: unknown driver "nope" (--driver); the drivers are:')
    expect(lines[1]).toMatch(/^ {2}native {7}the kernel's own loop/)
    expect(lines[2]).toMatch(/^ {2}claude-code {2}each turn runs inside Claude Code/)
    expect(lines[3]).toMatch(/^ {2}codex {8}each turn runs inside Codex/)
  })

  it('a config with an unknown driver name is invalid (exit 2)', async () => {
    const cwd = project({ 'harness.config.mjs': "export default { driver: 'nope' }\n" })
    const result = await harness(['run', 'hello'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      `"driver": expected 'native', 'claude-code' or 'codex', or a Driver object (useDriver's argument, e.g. claudeCodeDriver({ ... })), got "nope"`,
    )
  })

  it('help lists --driver for run and app-server', async () => {
    for (const command of ['run', 'app-server']) {
      const help = await harness([command, '--help'], { cwd: project() })
      expect(help.code).toBe(0)
      expect(help.stdout).toContain('--driver <name>')
      expect(help.stdout).toContain('claude-code')
    }
  })

  it('a native run never loads the Claude Code driver or the Agent SDK; --driver claude-code loads the driver, and the SDK only for a session', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    const log = join(cwd, 'resolved.log')
    // Records every module the CLI resolves (module.register hooks, in the child only).
    writeFileSync(
      join(cwd, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n')
  return resolved
}
`,
    )
    writeFileSync(join(cwd, 'register.mjs'), "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n")
    const NODE_OPTIONS = `--import ${pathToFileURL(join(cwd, 'register.mjs')).href}`
    const native = await harness(['run', 'hello', '--model', 'scripted:script.yaml'], { cwd, env: { NODE_OPTIONS } })
    expect(native.code).toBe(0)
    const resolved = readFileSync(log, 'utf8')
    expect(resolved).toContain('/kernel/dist/')
    expect(resolved).not.toContain('/drivers/claude-code/')
    expect(resolved).not.toContain('claude-agent-sdk')

    rmSync(log)
    // An app server whose host leaves at once: the harness is composed (the driver loads), no session opens (no SDK).
    const served = await harness(['app-server', '--driver', 'claude-code'], { cwd, env: { NODE_OPTIONS } })
    expect(served.code).toBe(0)
    const loaded = readFileSync(log, 'utf8')
    expect(loaded).toContain('/drivers/claude-code/dist/')
    expect(loaded).not.toContain('claude-agent-sdk')
  })
})

describe('createHarness with a driver', () => {
  it('driver: "claude-code" composes useDriver() last, with no model plugin and without HARNESS_MODEL; a Driver object from the config is used as given', async () => {
    const cwd = project()
    const env = { HARNESS_HOME: join(cwd, 'harness-home'), CODEX_HOME: join(cwd, 'codex'), CLAUDE_CONFIG_DIR: join(cwd, 'claude') }
    const harnessed = await createHarness({ cwd, env, driver: 'claude-code', model: 'claude-test-model' })
    try {
      expect(harnessed.kernel.plugins).toEqual(['tools', 'compaction', 'codex-hooks', 'claude-code-hooks', 'driver'])
      expect(harnessed.driver).toBe('claude-code')
      expect(harnessed.model).toBe('claude-test-model')
      expect(harnessed.kernel.resolve('driver').capabilities.boundaries).toEqual(['sampling', 'tool', 'final'])
    } finally {
      await harnessed.kernel.dispose()
    }

    // HARNESS_MODEL picks a provider for the native loop; Claude Code is not given it.
    const fromEnv = await createHarness({ cwd, env: { ...env, HARNESS_MODEL: 'openai:gpt-test' }, driver: 'claude-code' })
    try {
      expect(fromEnv.model).toBeUndefined()
      expect(fromEnv.kernel.plugins).toEqual(['tools', 'compaction', 'codex-hooks', 'claude-code-hooks', 'driver'])
    } finally {
      await fromEnv.kernel.dispose()
    }

    const driver = (await import('@harness-kernel/driver-claude-code')).claudeCodeDriver({ model: 'claude-from-config' })
    const configured = await createHarness({ cwd, env, config: { driver } })
    try {
      expect(configured.kernel.resolve('driver')).toBe(driver)
      expect(configured.driver).toBe('claude-code')
    } finally {
      await configured.kernel.dispose()
    }
    await expect(createHarness({ cwd, env, config: { driver }, model: 'claude-x' })).rejects.toThrow(
      /the claude-code driver given as an object brings its own model/,
    )

    const native = await createHarness({ cwd, env, model: 'scripted:none.yaml', requireModel: false })
    try {
      expect(native.driver).toBe('native')
      expect(native.kernel.plugins).not.toContain('driver')
    } finally {
      await native.kernel.dispose()
    }
  })
})
