import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createHarness } from '@harness-kernel/cli'
import { type FakeOpenAI, newInput, startFakeOpenAI, userTexts } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { harness, project, readEvents, SHELL_SCRIPT, sessionsIn } from './support.js'

/** The fake Responses API answers this with a call of the kernel's `shell` (a Codex dynamic tool), then `FINAL reply to request #N`. */
const SHELL_PROMPT = `Run it [[call:shell:${JSON.stringify({ command: 'echo from-kernel-tool' })}]]`

/** Keys, endpoints and models of the machine's own environment must not reach these runs. */
const NO_KEYS = {
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  ANTHROPIC_MODEL: '',
  ANTHROPIC_AUTH_TOKEN: '',
  HARNESS_MODEL: '',
}

const servers: FakeOpenAI[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fake Responses API and the CLI environment that points Codex at it: OPENAI_BASE_URL, a key, and a HOME of its own. */
async function fakeCodex(): Promise<{ server: FakeOpenAI; env: Record<string, string>; home: string }> {
  const server = await startFakeOpenAI()
  servers.push(server)
  const dir = mkdtempSync(join(tmpdir(), 'harness-cli-codex-'))
  dirs.push(dir)
  const home = join(dir, 'home')
  mkdirSync(home)
  return { server, home, env: { ...NO_KEYS, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'fake-key' } }
}

/** The session folder of the only session in `cwd`, and its log's events. */
function onlySession(cwd: string) {
  const sessionsDir = join(cwd, '.harness/sessions')
  const [id] = sessionsIn(sessionsDir)
  expect(id).toBeDefined()
  return { id: id!, events: readEvents(join(sessionsDir, `${id}.jsonl`)), stateDir: join(sessionsDir, 'drivers/codex', id!) }
}

/** Checks the shell-tool turn: what the CLI printed, what the fake model saw and what the kernel logged. */
function expectShellTurn(result: { code: number | null; stdout: string; stderr: string }, cwd: string, server: FakeOpenAI) {
  expect(result.stderr).toContain('[turn] completed')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/^FINAL reply to request #\d+\n$/)
  expect(result.stderr).toContain('[tool] shell {"command":"echo from-kernel-tool"}')
  expect(result.stderr).toContain('[tool] shell ok: from-kernel-tool')
  expect(result.stderr).toMatch(/\[driver\] codex session \S+/)
  expect(server.requests).toHaveLength(2)
  expect(newInput(server.requests[1]!)).toEqual([expect.stringMatching(/^output:.*from-kernel-tool/s)])
  const { events, stateDir } = onlySession(cwd)
  expect(events.find((event) => event.type === 'driver/session')).toMatchObject({ driver: 'codex', nativeId: expect.any(String) })
  expect(events.find((event) => event.type === 'tool/call')).toMatchObject({ name: 'shell', decision: 'allow' })
  expect(events.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'from-kernel-tool', isError: false })
  expect(events.filter((event) => event.type === 'turn/end')).toEqual([expect.objectContaining({ status: 'completed' })])
  // Codex's provider, as the driver wrote it into the session's own CODEX_HOME.
  const config = readFileSync(join(stateDir, 'codex-home/config.toml'), 'utf8')
  expect(config).toContain(`base_url = ${JSON.stringify(server.baseURL)}`)
  expect(config).toContain('env_key = "OPENAI_API_KEY"')
  return events
}

describe('harness run --driver codex', () => {
  it('runs the turn inside Codex with --model openai:MODEL: the kernel shell tool, the final text, a driver/session event', async () => {
    const { server, env, home } = await fakeCodex()
    const cwd = project()
    const result = await harness(['run', '--driver', 'codex', '--model', 'openai:gpt-5.1-codex', SHELL_PROMPT], { cwd, env })
    expectShellTurn(result, cwd, server)
    expect(server.requests.map((request) => request.body.model)).toEqual(['gpt-5.1-codex', 'gpt-5.1-codex'])
    expect(userTexts(server.requests[0]!)).toContain(SHELL_PROMPT)
    // Codex kept to its own CODEX_HOME: nothing went to the HOME it was given.
    expect(existsSync(join(home, '.codex'))).toBe(false)
  }, 60_000)

  it('a config with driver: "codex" and model: "openai:MODEL" runs the same; --driver native overrides it (with a model of its own)', async () => {
    const { server, env } = await fakeCodex()
    const cwd = project({
      'harness.config.mjs': "export default { driver: 'codex', model: 'openai:gpt-from-config' }\n",
      'script.yaml': SHELL_SCRIPT,
    })
    const result = await harness(['run', SHELL_PROMPT], { cwd, env })
    expectShellTurn(result, cwd, server)
    expect(server.requests[0]!.body.model).toBe('gpt-from-config')

    const native = await harness(['run', 'hello', '--driver', 'native', '--model', 'scripted:script.yaml'], { cwd, env })
    expect(native.code).toBe(0)
    expect(native.stdout).toBe('All done.\nThe shell said hello.\n')
    expect(native.stderr).not.toContain('[driver]')
    expect(server.requests).toHaveLength(2)
  }, 60_000)

  it('--model MODEL (bare) is Codex’s model too; another provider’s spec is refused with exit 2', async () => {
    const { server, env } = await fakeCodex()
    const cwd = project()
    const refused = [
      ['anthropic:claude-sonnet-4-5', 'anthropic'],
      ['scripted:script.yaml', 'scripted'],
      ['openai-chat:qwen3', 'openai-chat'],
    ] as const
    const configured = project({ 'harness.config.mjs': "export default { driver: 'codex', model: 'anthropic:claude-sonnet-4-5' }\n" })
    // Independent runs, side by side: only the first reaches the server.
    const [bare, fromConfig, ...wrongs] = await Promise.all([
      harness(['run', '--driver', 'codex', '--model', 'gpt-test-model', 'hello'], { cwd, env }),
      harness(['run', 'hello'], { cwd: configured, env }),
      ...refused.map(([spec]) => harness(['run', '--driver', 'codex', '--model', spec, 'hello'], { cwd, env })),
    ])
    expect(bare.code).toBe(0)
    expect(bare.stdout).toMatch(/^FINAL reply to request #\d+\n$/)
    expect(server.requests.map((request) => request.body.model)).toEqual(['gpt-test-model'])

    for (const [index, [spec, provider]] of refused.entries()) {
      const wrong = wrongs[index]!
      expect(wrong.code).toBe(2)
      expect(wrong.stdout).toBe('')
      expect(wrong.stderr).toContain(
        `harness: --model "${spec}" names the ${provider} provider, but the codex driver runs Codex, which brings its own model: ` +
          "pass a model of Codex's Responses provider (e.g. --model openai:gpt-5.1-codex; the endpoint is OPENAI_BASE_URL)",
      )
    }
    expect(fromConfig.code).toBe(2)
    expect(fromConfig.stderr).toMatch(
      /: "model" "anthropic:claude-sonnet-4-5" names the anthropic provider, but the codex driver runs Codex/,
    )
    expect(server.requests).toHaveLength(1)
  }, 60_000)

  it('without OPENAI_API_KEY, or with an OPENAI_BASE_URL that is not http(s), exits 2 before a session starts', async () => {
    const { server, env } = await fakeCodex()
    const cwd = project()
    // Independent runs, side by side.
    const [noKey, noKeyDefault, badUrl] = await Promise.all([
      harness(['run', '--driver', 'codex', 'hello'], { cwd, env: { ...env, OPENAI_API_KEY: '' } }),
      harness(['run', '--driver', 'codex', 'hello'], { cwd, env: { ...env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } }),
      harness(['run', '--driver', 'codex', 'hello'], { cwd, env: { ...env, OPENAI_BASE_URL: '127.0.0.1:9/v1' } }),
    ])
    expect(noKey.code).toBe(2)
    expect(noKey.stdout).toBe('')
    expect(noKey.stderr).toContain(
      `harness: --driver codex needs an API key for Codex's provider (${server.baseURL}): set OPENAI_API_KEY (any value for a server that takes none)`,
    )
    expect(noKeyDefault.stderr).toContain("harness: --driver codex needs an API key for Codex's provider (https://api.openai.com/v1)")

    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toContain('harness: --driver codex: OPENAI_BASE_URL must be an http(s) URL')
    expect(sessionsIn(join(cwd, '.harness/sessions'))).toEqual([])
    expect(server.requests).toHaveLength(0)
  })

  it('--resume continues Codex’s own thread: the next turn’s request carries the first turn', async () => {
    const { server, env } = await fakeCodex()
    const cwd = project()
    const first = await harness(['run', '--driver', 'codex', '--json', 'remember the word banana'], { cwd, env })
    expect(first.code).toBe(0)
    const { sessionId, transcriptPath } = JSON.parse(first.stdout)
    const second = await harness(['run', '--driver', 'codex', '--resume', sessionId, 'what was the word?'], { cwd, env })
    expect(second.code).toBe(0)
    expect(second.stderr).toContain(`[session] resumed ${sessionId}`)
    const last = userTexts(server.requests.at(-1)!)
    expect(last).toContain('remember the word banana')
    expect(last).toContain('what was the word?')
    const events = readEvents(transcriptPath)
    expect(events.filter((event) => event.type === 'driver/session')).toHaveLength(1)
    expect(events.filter((event) => event.type === 'turn/end').map((event) => event.type === 'turn/end' && event.status)).toEqual([
      'completed',
      'completed',
    ])
  }, 60_000)

  it('help names the codex driver for run and app-server', async () => {
    for (const command of ['run', 'app-server']) {
      const help = await harness([command, '--help'], { cwd: project() })
      expect(help.code).toBe(0)
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('codex (Codex through codex app-server')
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('with --driver codex, openai:MODEL or MODEL')
    }
  })

  it('a native run never loads the Codex driver; --driver codex loads it, and starts no Codex until a session runs a turn', async () => {
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
    expect(readFileSync(log, 'utf8')).not.toContain('/drivers/codex/')

    rmSync(log)
    // An app server whose host leaves at once: the harness is composed (the driver loads), no session opens (no Codex).
    const served = await harness(['app-server', '--driver', 'codex'], { cwd, env: { NODE_OPTIONS, OPENAI_API_KEY: 'fake-key' } })
    expect(served.code).toBe(0)
    expect(readFileSync(log, 'utf8')).toContain('/drivers/codex/dist/')
    expect(existsSync(join(cwd, '.harness/sessions/drivers/codex'))).toBe(false)
  })
})

describe('createHarness with the codex driver', () => {
  it('driver: "codex" composes useDriver() last, with no model plugin and without HARNESS_MODEL; --model names Codex’s model', async () => {
    const cwd = project()
    const env = {
      HARNESS_HOME: join(cwd, 'harness-home'),
      CODEX_HOME: join(cwd, 'codex'),
      CLAUDE_CONFIG_DIR: join(cwd, 'claude'),
      OPENAI_API_KEY: 'fake-key',
    }
    const harnessed = await createHarness({ cwd, env, driver: 'codex', model: 'openai:gpt-test-model' })
    try {
      expect(harnessed.kernel.plugins).toEqual(['tools', 'compaction', 'codex-hooks', 'claude-code-hooks', 'driver'])
      expect(harnessed.driver).toBe('codex')
      expect(harnessed.model).toBe('gpt-test-model')
      const driver = harnessed.kernel.resolve('driver')
      expect(driver.capabilities.model).toBe('own')
      expect(driver.capabilities.boundaries).toEqual(['sampling', 'tool', 'final'])
    } finally {
      await harnessed.kernel.dispose()
    }

    // HARNESS_MODEL picks a provider for the native loop; Codex is not given it.
    const fromEnv = await createHarness({ cwd, env: { ...env, HARNESS_MODEL: 'openai:gpt-test' }, driver: 'codex' })
    try {
      expect(fromEnv.model).toBeUndefined()
      expect(fromEnv.kernel.plugins).toEqual(['tools', 'compaction', 'codex-hooks', 'claude-code-hooks', 'driver'])
    } finally {
      await fromEnv.kernel.dispose()
    }

    await expect(createHarness({ cwd, env, driver: 'codex', model: 'anthropic:claude-x' })).rejects.toThrow(
      /"anthropic:claude-x" names the anthropic provider, but the codex driver runs Codex/,
    )
    const driver = (await import('@harness-kernel/driver-codex')).codexDriver({ model: 'gpt-from-config' })
    await expect(createHarness({ cwd, env, config: { driver }, model: 'gpt-x' })).rejects.toThrow(
      /the codex driver given as an object brings its own model; set the model in its options instead/,
    )
  })
})
