/**
 * The workspace methods (`model/list`, `config/*`, `configRequirements/read`, `skills/list`, `mcpServerStatus/list`,
 * `command/exec*`, `fuzzyFileSearch`, `account/read`) against a real server process (`fixtures/workspace-server.mjs`
 * over `dist/`). Expected error texts and scores are the real Codex 0.169.0's where it has them (observed over stdio
 * with an isolated CODEX_HOME), and every answer, error and notification of these methods is checked against Codex's
 * schema.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { AppServerClient } from '../src/client.js'
import { waitUntil } from './harness.js'
import { codexSchema, codexSchemaErrors } from './support/codex-schema.js'

const fixture = fileURLToPath(new URL('./fixtures/workspace-server.mjs', import.meta.url))
const root = realpathSync(mkdtempSync(join(tmpdir(), 'app-server-workspace-')))
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface Server {
  client: AppServerClient
  /** The kernel's cwd. */
  cwd: string
  /** HARNESS_HOME. */
  home: string
}

let count = 0
const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  // Every message could have come from Codex 0.169.0 and 0.171.0. (Answers to requests sent raw are checked where they are sent.)
  expect(codexSchema.take().filter((failure) => !failure.startsWith('response to request '))).toEqual([])
})

/** Spawns and initializes a server in a fresh cwd (or the given one), with its own HARNESS_HOME unless given. */
async function start(options: { args?: string[]; cwd?: string; home?: string } = {}): Promise<Server> {
  const cwd = options.cwd ?? join(root, `cwd-${++count}`)
  const home = options.home ?? join(root, `home-${count}`)
  mkdirSync(cwd, { recursive: true })
  const client = AppServerClient.spawn(process.execPath, [fixture, '--cwd', cwd, ...(options.args ?? [])], {
    cwd,
    env: { ...process.env, HARNESS_HOME: home },
    stderr: 'pipe',
    onReceive: codexSchema.onReceive,
  })
  clients.push(client)
  await client.initialize()
  return { client, cwd, home }
}

function error(code: number, message: string, data?: unknown) {
  return expect.objectContaining({ code, message, ...(data === undefined ? {} : { data }) })
}

const b64 = (text: string) => Buffer.from(text).toString('base64')
const fromB64 = (text: string) => Buffer.from(text, 'base64').toString()

/** The text streamed so far by a command, per stream. */
function streamed(client: AppServerClient, processId: string, stream: 'stdout' | 'stderr'): string {
  return client.notifications
    .filter((n) => n.method === 'command/exec/outputDelta' && n.params.processId === processId && n.params.stream === stream)
    .map((n) => fromB64(n.params.deltaBase64 as string))
    .join('')
}

describe('model/list', () => {
  it("lists the kernel's model (the model service) as Codex's Model, one page", async () => {
    const { client } = await start()
    const result = await client.request('model/list', {})
    expect(result).toEqual({
      data: [
        {
          id: 'scripted',
          model: 'scripted',
          upgrade: null,
          upgradeInfo: null,
          availabilityNux: null,
          displayName: 'scripted',
          description: "The harness's model: the kernel's model service, sampled by the native driver.",
          modelSpecialty: null,
          hidden: false,
          supportedReasoningEfforts: [],
          defaultReasoningEffort: 'none',
          inputModalities: ['text'],
          supportsPersonality: false,
          multiAgentVersion: null,
          additionalSpeedTiers: [],
          serviceTiers: [],
          defaultServiceTier: null,
          availableAccessPrograms: null,
          isDefault: true,
        },
      ],
      nextCursor: null,
    })
    // The same model thread/start names, from the provider thread/start names.
    const thread = await client.startThread()
    expect(thread).toMatchObject({ model: 'scripted', modelProvider: 'harness' })
    expect(await client.request('model/list', { modelProvider: 'harness', limit: 1, includeHidden: true })).toEqual(result)
  })

  it("names the driver's model when the driver brings its own, and none when the kernel has no model", async () => {
    const own = await start({ args: ['--own-model-driver'] })
    const listed = await own.client.request<{ data: { id: string; description: string }[] }>('model/list', {})
    expect(listed.data).toMatchObject([
      { id: 'fake-own', description: 'The model the fake-own driver brings (the driven program chooses it).' },
    ])
    expect(await own.client.startThread()).toMatchObject({ model: 'fake-own' })
    const none = await start({ args: ['--no-model'] })
    expect(await none.client.request('model/list', {})).toEqual({ data: [], nextCursor: null })
  })

  it('refuses what Codex refuses: no params, an unknown provider, a cursor it never gave', async () => {
    const { client } = await start()
    await expect(client.request('model/list')).rejects.toEqual(error(-32600, 'Invalid request: missing field `params`'))
    await expect(client.request('model/list', { modelProvider: 'nope' })).rejects.toEqual(
      error(
        -32600,
        'This chat uses model provider “nope”, which is no longer configured. Restore this provider’s configuration to continue.',
        { type: 'modelProviderNotConfigured', modelProvider: 'nope' },
      ),
    )
    await expect(client.request('model/list', { cursor: 'bogus' })).rejects.toEqual(error(-32600, 'invalid cursor: bogus'))
  })
})

describe('config/read, config/value/write, config/batchWrite', () => {
  const KEYS = [
    'model',
    'driver',
    'system',
    'sessionsDir',
    'maxStopContinuations',
    'modelRetry',
    'fsync',
    'maxToolOutputBytes',
    'processRunner',
    'prices',
    'budgets',
  ]
  const validation = { config_write_error_code: 'configValidationError' }

  it('reads the settings file of the harness home: every known key, null until set; no file is version sha256 of {}', async () => {
    const { client, home } = await start()
    const file = join(home, 'config.json')
    expect(await client.request('config/read', {})).toEqual({
      config: Object.fromEntries(KEYS.map((key) => [key, null])),
      origins: {},
      layers: null,
    })
    // The same version Codex gives an empty layer.
    const empty = 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
    expect(await client.request('config/read', { includeLayers: true, cwd: 'anywhere' })).toMatchObject({
      layers: [{ name: { type: 'user', file, profile: null }, version: empty, config: {}, disabledReason: null }],
    })
    await expect(client.request('config/read')).rejects.toEqual(error(-32600, 'Invalid request: missing field `params`'))
    expect(await client.request('configRequirements/read')).toEqual({ supportsIndependentSpeedModes: null, requirements: null })
  })

  it('writes keys the harness knows; a later read, and a restarted server, see them', async () => {
    const server = await start()
    const { client, home } = server
    const file = join(home, 'config.json')
    const first = await client.request<{ version: string }>('config/value/write', {
      keyPath: 'model',
      value: 'scripted:other.yaml',
      mergeStrategy: 'replace',
    })
    expect(first).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      filePath: file,
      overriddenMetadata: null,
    })
    const batch = await client.request<{ version: string }>('config/batchWrite', {
      edits: [
        { keyPath: 'modelRetry.maxAttempts', value: 2, mergeStrategy: 'replace' },
        { keyPath: 'modelRetry', value: { initialDelayMs: 50 }, mergeStrategy: 'upsert' },
        { keyPath: 'fsync', value: 'always', mergeStrategy: 'replace' },
        { keyPath: 'system', value: 'Be brief.', mergeStrategy: 'replace' },
        { keyPath: 'system', value: null, mergeStrategy: 'replace' },
      ],
      expectedVersion: first.version,
      reloadUserConfig: true,
    })
    expect(batch).toMatchObject({ status: 'ok', filePath: file })
    const layer = { name: { type: 'user', file, profile: null }, version: batch.version }
    const read = await client.request('config/read', { includeLayers: true })
    expect(read).toEqual({
      config: {
        ...Object.fromEntries(KEYS.map((key) => [key, null])),
        model: 'scripted:other.yaml',
        modelRetry: { maxAttempts: 2, initialDelayMs: 50 },
        fsync: 'always',
      },
      origins: { model: layer, 'modelRetry.maxAttempts': layer, 'modelRetry.initialDelayMs': layer, fsync: layer },
      layers: [
        {
          ...layer,
          config: { model: 'scripted:other.yaml', modelRetry: { maxAttempts: 2, initialDelayMs: 50 }, fsync: 'always' },
          disabledReason: null,
        },
      ],
    })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      model: 'scripted:other.yaml',
      modelRetry: { maxAttempts: 2, initialDelayMs: 50 },
      fsync: 'always',
    })
    // A replace of a map replaces it whole; the edit naming the file by its path is a write to the same file.
    await client.request('config/value/write', {
      keyPath: 'modelRetry',
      value: { maxDelayMs: 9 },
      mergeStrategy: 'replace',
      filePath: file,
    })

    await client.close()
    const restarted = await start({ cwd: server.cwd, home })
    const again = await restarted.client.request<{ config: Record<string, unknown>; layers: { version: string }[] }>('config/read', {
      includeLayers: true,
    })
    expect(again.config).toMatchObject({ model: 'scripted:other.yaml', modelRetry: { maxDelayMs: 9 }, fsync: 'always' })
    const written = await restarted.client.request<{ version: string }>('config/batchWrite', { edits: [] })
    expect(again.layers[0]!.version).toBe(written.version)
  })

  it('refuses keys the harness does not know, and values it does not take, in Codex words; a refused batch writes nothing', async () => {
    const { client, home } = await start()
    await client.request('config/value/write', { keyPath: 'fsync', value: 'never', mergeStrategy: 'replace' })
    const before = readFileSync(join(home, 'config.json'), 'utf8')
    const known =
      '`model`, `driver`, `system`, `sessionsDir`, `maxStopContinuations`, `modelRetry`, `fsync`, `maxToolOutputBytes`, `processRunner`, `prices`, `budgets`'
    await expect(
      client.request('config/value/write', { keyPath: 'approval_policy', value: 'never', mergeStrategy: 'replace' }),
    ).rejects.toEqual(
      error(
        -32600,
        `Invalid configuration: unknown field \`approval_policy\`, expected one of ${known}\nin \`approval_policy\`\n`,
        validation,
      ),
    )
    await expect(client.request('config/value/write', { keyPath: 'modelRetry.tries', value: 3, mergeStrategy: 'upsert' })).rejects.toEqual(
      error(
        -32600,
        'Invalid configuration: unknown field `tries`, expected one of `maxAttempts`, `initialDelayMs`, `maxDelayMs`, `maxRetryAfterMs`\nin `modelRetry.tries`\n',
        validation,
      ),
    )
    // Codex's own text for the same mistake.
    await expect(client.request('config/value/write', { keyPath: 'model', value: 5, mergeStrategy: 'replace' })).rejects.toEqual(
      error(-32600, 'Invalid configuration: invalid type: integer `5`, expected a string\nin `model`\n', validation),
    )
    await expect(
      client.request('config/batchWrite', {
        edits: [
          { keyPath: 'model', value: 'scripted:x.yaml', mergeStrategy: 'replace' },
          { keyPath: 'driver', value: 'sometimes', mergeStrategy: 'replace' },
        ],
      }),
    ).rejects.toEqual(
      error(
        -32600,
        'Invalid configuration: unknown variant `sometimes`, expected one of `native`, `claude-code`, `codex`\nin `driver`\n',
        validation,
      ),
    )
    await expect(
      client.request('config/value/write', { keyPath: 'maxStopContinuations', value: -1, mergeStrategy: 'replace' }),
    ).rejects.toEqual(
      error(
        -32600,
        'Invalid configuration: invalid value: integer `-1`, expected an integer >= 0\nin `maxStopContinuations`\n',
        validation,
      ),
    )
    await expect(
      client.request('config/value/write', { keyPath: '__proto__.polluted', value: 1, mergeStrategy: 'replace' }),
    ).rejects.toEqual(error(-32600, 'Invalid configuration: unknown field `__proto__`\nin `__proto__.polluted`\n', validation))
    await expect(client.request('config/value/write', { keyPath: '', value: 'a', mergeStrategy: 'replace' })).rejects.toEqual(
      error(-32600, 'keyPath must not be empty', validation),
    )
    await expect(
      client.request('config/value/write', {
        keyPath: 'model',
        value: 'a',
        mergeStrategy: 'replace',
        filePath: join(root, 'elsewhere.json'),
      }),
    ).rejects.toEqual(error(-32600, 'Only writes to the user config are allowed', { config_write_error_code: 'configLayerReadonly' }))
    await expect(
      client.request('config/value/write', { keyPath: 'model', value: 'a', mergeStrategy: 'replace', expectedVersion: 'sha256:nope' }),
    ).rejects.toEqual(
      error(-32600, 'Configuration was modified since last read. Fetch latest version and retry.', {
        config_write_error_code: 'configVersionConflict',
      }),
    )
    await expect(client.request('config/value/write', { keyPath: 'model', value: 'a', mergeStrategy: 'bogus' })).rejects.toEqual(
      error(-32600, 'Invalid request: unknown variant `bogus`, expected `replace` or `upsert`'),
    )
    await expect(client.request('config/value/write', { keyPath: 'model', value: 'a' })).rejects.toEqual(
      error(-32600, 'Invalid request: missing field `mergeStrategy`'),
    )
    await expect(client.request('config/value/write', { value: 'a', mergeStrategy: 'replace' })).rejects.toEqual(
      error(-32600, 'Invalid request: missing field `keyPath`'),
    )
    await expect(client.request('config/value/write', { keyPath: 'model', mergeStrategy: 'replace' })).rejects.toEqual(
      error(-32600, 'Invalid request: missing field `value`'),
    )
    await expect(client.request('config/batchWrite', {})).rejects.toEqual(error(-32600, 'Invalid request: missing field `edits`'))
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(before)
  })

  it('takes the kernel’s budgets and prices, and refuses a limit or a price it would not take', async () => {
    const { client, home } = await start()
    await client.request('config/value/write', { keyPath: 'budgets.turn.maxTokens', value: 20_000, mergeStrategy: 'upsert' })
    await client.request('config/value/write', {
      keyPath: 'prices',
      value: { 'team-proxy': 'claude-sonnet-4-5' },
      mergeStrategy: 'replace',
    })
    await expect(
      client.request('config/value/write', { keyPath: 'budgets.session.maxCostUsd', value: 0, mergeStrategy: 'upsert' }),
    ).rejects.toEqual(
      error(
        -32600,
        'Invalid configuration: invalid value: integer `0`, expected a number > 0\nin `budgets.session.maxCostUsd`\n',
        validation,
      ),
    )
    await expect(
      client.request('config/value/write', { keyPath: 'prices.my-model', value: { input: 1, output: -1 }, mergeStrategy: 'replace' }),
    ).rejects.toEqual(
      error(
        -32600,
        'Invalid configuration: invalid value: integer `-1`, expected a number >= 0\nin `prices.my-model.output`\n',
        validation,
      ),
    )
    expect(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'))).toEqual({
      budgets: { turn: { maxTokens: 20_000 } },
      prices: { 'team-proxy': 'claude-sonnet-4-5' },
    })
  })

  it('refuses to read or overwrite a settings file the harness cannot take', async () => {
    const { client, home } = await start()
    const file = join(home, 'config.json')
    mkdirSync(home, { recursive: true })
    writeFileSync(file, '{"model": "scripted:a.yaml", "plugins": []}')
    const unknown = `Invalid configuration in ${file}: unknown field \`plugins\`, expected one of \`model\`, \`driver\`, \`system\`, \`sessionsDir\`, \`maxStopContinuations\`, \`modelRetry\`, \`fsync\`, \`maxToolOutputBytes\`, \`processRunner\`, \`prices\`, \`budgets\`\nin \`plugins\`\n`
    await expect(client.request('config/read', {})).rejects.toEqual(
      error(-32600, unknown, { config_write_error_code: 'configValidationError' }),
    )
    await expect(client.request('config/value/write', { keyPath: 'plugins', value: null, mergeStrategy: 'replace' })).rejects.toEqual(
      error(-32600, unknown),
    )
    writeFileSync(file, '{"model": ')
    await expect(client.request('config/read', {})).rejects.toEqual(
      error(-32600, expect.stringMatching(new RegExp(`^Invalid configuration in ${file}: .*JSON`))),
    )
    expect(readFileSync(file, 'utf8')).toBe('{"model": ')
  })
})

describe('skills/list, mcpServerStatus/list, account/read', () => {
  it('answers honestly: no skills, no MCP servers, no account and no login needed', async () => {
    const { client, cwd } = await start()
    expect(await client.request('skills/list', {})).toEqual({ data: [{ cwd, skills: [], errors: [] }] })
    expect(await client.request('skills/list', { cwds: ['/a', 'relative/b'], forceReload: true })).toEqual({
      data: [
        { cwd: '/a', skills: [], errors: [] },
        { cwd: 'relative/b', skills: [], errors: [] },
      ],
    })
    expect(await client.request('mcpServerStatus/list', {})).toEqual({ data: [], nextCursor: null })
    const { thread } = await client.startThread()
    expect(
      await client.request('mcpServerStatus/list', { detail: 'toolsAndAuthOnly', threadId: thread.id, serverName: 'x', limit: 5 }),
    ).toEqual({
      data: [],
      nextCursor: null,
    })
    // Codex 0.171.0: an environment's registration needs the server and the thread.
    const named = { environmentId: 'local', serverName: 'x', threadId: thread.id }
    expect(await client.request('mcpServerStatus/list', named)).toEqual({ data: [], nextCursor: null })
    await expect(client.request('mcpServerStatus/list', { environmentId: 'local', serverName: 'x' })).rejects.toEqual(
      error(-32600, 'environmentId requires serverName and threadId'),
    )
    expect(await client.request('account/read', {})).toEqual({ account: null, userId: null, requiresOpenaiAuth: false })
    expect(await client.request('account/read', { refreshToken: true })).toEqual({ account: null, userId: null, requiresOpenaiAuth: false })
  })

  it('refuses what Codex refuses', async () => {
    const { client } = await start()
    for (const method of ['skills/list', 'mcpServerStatus/list', 'account/read']) {
      await expect(client.request(method)).rejects.toEqual(error(-32600, 'Invalid request: missing field `params`'))
    }
    await expect(client.request('mcpServerStatus/list', { cursor: 'bogus' })).rejects.toEqual(error(-32600, 'invalid cursor: bogus'))
    await expect(client.request('mcpServerStatus/list', { detail: 'weird' })).rejects.toEqual(
      error(-32600, 'Invalid request: unknown variant `weird`, expected `full` or `toolsAndAuthOnly`'),
    )
    await expect(client.request('mcpServerStatus/list', { threadId: 'nope' })).rejects.toEqual(error(-32600, 'thread not found: nope'))
  })
})

describe('command/exec', () => {
  it('runs an argv in the kernel cwd and answers its exit code and output, buffered', async () => {
    const { client, cwd } = await start()
    mkdirSync(join(cwd, 'sub'))
    expect(await client.request('command/exec', { command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] })).toEqual({
      exitCode: 3,
      stdout: 'out\n',
      stderr: 'err\n',
    })
    expect(await client.request('command/exec', { command: ['pwd'] })).toEqual({ exitCode: 0, stdout: `${cwd}\n`, stderr: '' })
    expect(await client.request('command/exec', { command: ['pwd'], cwd: 'sub' })).toMatchObject({ stdout: `${cwd}/sub\n` })
    expect(
      await client.request('command/exec', {
        command: ['sh', '-c', 'echo "$FOO|$(printenv HOME || echo unset)"'],
        env: { FOO: 'bar', HOME: null },
        processId: 'env',
      }),
    ).toMatchObject({ exitCode: 0, stdout: 'bar|unset\n' })
    // Output is capped from the start (as Codex keeps it), per stream.
    expect(
      await client.request('command/exec', { command: ['sh', '-c', 'printf 0123456789; printf abcdef >&2'], outputBytesCap: 4 }),
    ).toEqual({
      exitCode: 0,
      stdout: '0123',
      stderr: 'abcd',
    })
    expect(
      await client.request('command/exec', { command: ['sh', '-c', 'head -c 1200000 /dev/zero | tr "\\0" x'], disableOutputCap: true }),
    ).toMatchObject({
      stdout: expect.stringMatching(/^x{1200000}$/),
    })
    expect(await client.request('command/exec', { command: ['sleep', '1000'], timeoutMs: 200 })).toEqual({
      exitCode: 124,
      stdout: '',
      stderr: '',
    })
    expect(
      await client.request('command/exec', { command: ['true'], sandboxPolicy: { type: 'dangerFullAccess' }, disableTimeout: true }),
    ).toMatchObject({
      exitCode: 0,
    })
    expect(client.notifications.some((n) => n.method === 'command/exec/outputDelta')).toBe(false)
  })

  it('streams output as it arrives, feeds stdin with command/exec/write, and answers after the last delta', async () => {
    const { client, cwd } = await start()
    // The command outlives its stdin until the test says so: a write after closeStdin must find it still running.
    const exec = client.request('command/exec', {
      command: [
        'sh',
        '-c',
        'echo ready; read line; echo "got:$line"; echo oops >&2; cat; echo end; until [ -e released ]; do sleep 0.01; done',
      ],
      processId: 'p1',
      streamStdin: true,
      streamStdoutStderr: true,
    })
    // The first line streams before anything is written: the command is still running, waiting for stdin.
    await waitUntil(() => streamed(client, 'p1', 'stdout') === 'ready\n', 'the first delta')
    await expect(client.request('command/exec', { command: ['true'], processId: 'p1' })).rejects.toEqual(
      error(-32600, 'duplicate active command/exec process id: "p1"'),
    )
    await expect(client.request('command/exec/resize', { processId: 'p1', size: { rows: 24, cols: 80 } })).rejects.toEqual(
      error(-32600, 'failed to resize PTY: process is not attached to a PTY'),
    )
    await expect(client.request('command/exec/resize', { processId: 'p1', size: { rows: 0, cols: 80 } })).rejects.toEqual(
      error(-32602, 'command/exec size rows and cols must be greater than 0'),
    )
    expect(await client.request('command/exec/write', { processId: 'p1', deltaBase64: b64('hello\n') })).toEqual({})
    await waitUntil(() => streamed(client, 'p1', 'stdout') === 'ready\ngot:hello\n', 'the echo of stdin')
    expect(await client.request('command/exec/write', { processId: 'p1', deltaBase64: b64('rest'), closeStdin: true })).toEqual({})
    await expect(client.request('command/exec/write', { processId: 'p1', deltaBase64: b64('more') })).rejects.toEqual(
      error(-32600, 'stdin is already closed'),
    )
    writeFileSync(join(cwd, 'released'), '')
    // Streamed output is not repeated in the answer.
    expect(await exec).toEqual({ exitCode: 0, stdout: '', stderr: '' })
    expect(streamed(client, 'p1', 'stdout')).toBe('ready\ngot:hello\nrestend\n')
    expect(streamed(client, 'p1', 'stderr')).toBe('oops\n')
    const deltas = client.received.filter((message) => message.method === 'command/exec/outputDelta')
    expect(
      deltas.every(
        (message) => (message.params as { capReached: boolean }).capReached === false && typeof message.emittedAtMs === 'number',
      ),
    ).toBe(true)
    const answeredAt = client.received.findIndex(
      (message) => message.method === undefined && message.result !== undefined && 'exitCode' in (message.result as object),
    )
    const lastDeltaAt = client.received.findLastIndex((message) => message.method === 'command/exec/outputDelta')
    expect(lastDeltaAt).toBeLessThan(answeredAt)
    await expect(client.request('command/exec/write', { processId: 'p1', closeStdin: true })).rejects.toEqual(
      error(-32600, 'no active command/exec for process id "p1"'),
    )
  })

  it('caps streamed output per stream and says so on the last delta', async () => {
    const { client } = await start()
    expect(
      await client.request('command/exec', {
        command: ['sh', '-c', 'printf abcdefgh; printf 12345678 >&2'],
        processId: 's1',
        streamStdoutStderr: true,
        outputBytesCap: 3,
      }),
    ).toEqual({ exitCode: 0, stdout: '', stderr: '' })
    const deltas = client.notifications.filter((n) => n.method === 'command/exec/outputDelta').map((n) => n.params)
    expect(deltas).toContainEqual({ processId: 's1', stream: 'stdout', deltaBase64: b64('abc'), capReached: true })
    expect(deltas).toContainEqual({ processId: 's1', stream: 'stderr', deltaBase64: b64('123'), capReached: true })
    expect(deltas).toHaveLength(2)
  })

  it('terminates a command on command/exec/terminate, and every command of a host that goes away', async () => {
    const { client, cwd } = await start()
    const long = `1000.${process.pid}`
    const exec = client.request('command/exec', { command: ['sleep', long], processId: 'long', disableTimeout: true })
    await waitUntil(() => processesWith(long, 'sleep') > 0, 'the long command')
    await expect(client.request('command/exec/write', { processId: 'long', deltaBase64: b64('x') })).rejects.toEqual(
      error(-32600, 'stdin streaming is not enabled for this command/exec'),
    )
    expect(await client.request('command/exec/terminate', { processId: 'long' })).toEqual({})
    // SIGTERM, as a shell reports it.
    expect(await exec).toEqual({ exitCode: 143, stdout: '', stderr: '' })

    const pidFile = join(cwd, 'pid')
    // Outside the sandbox, so that `$$` is this machine's pid (the sandbox has a pid namespace of its own).
    void client
      .request('command/exec', {
        command: ['sh', '-c', `echo $$ > ${pidFile}; exec sleep 30`],
        processId: 'orphan',
        disableTimeout: true,
        sandboxPolicy: { type: 'dangerFullAccess' },
      })
      .catch(() => {})
    // And one in the sandbox (the default policy's), found by its unique argument once it runs (bubblewrap has set up).
    const marker = `30.${process.pid}`
    void client.request('command/exec', { command: ['sleep', marker], processId: 'sandboxed', disableTimeout: true }).catch(() => {})
    await waitUntil(() => processesWith(marker, 'sleep') > 0, 'the sandboxed command')
    await waitUntil(() => {
      try {
        return readFileSync(pidFile, 'utf8').trim() !== ''
      } catch {
        return false
      }
    }, 'the pid file')
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(isRunning(pid)).toBe(true)
    await client.close()
    await waitUntil(() => !isRunning(pid) && processesWith(marker) === 0, 'the commands to be killed')
  })

  it('refuses what Codex refuses, in its words, and what the harness cannot do (tty, an external sandbox)', async () => {
    const { client } = await start()
    await expect(client.request('command/exec', {})).rejects.toEqual(error(-32600, 'Invalid request: missing field `command`'))
    await expect(client.request('command/exec', { command: [] })).rejects.toEqual(error(-32600, 'command must not be empty'))
    for (const flag of ['tty', 'streamStdin', 'streamStdoutStderr']) {
      await expect(client.request('command/exec', { command: ['true'], [flag]: true })).rejects.toEqual(
        error(-32600, 'command/exec tty or streaming requires a client-supplied processId'),
      )
    }
    await expect(client.request('command/exec', { command: ['true'], size: { rows: 1, cols: 1 } })).rejects.toEqual(
      error(-32602, 'command/exec size requires tty: true'),
    )
    await expect(client.request('command/exec', { command: ['true'], timeoutMs: 10, disableTimeout: true })).rejects.toEqual(
      error(-32602, 'command/exec cannot set both timeoutMs and disableTimeout'),
    )
    await expect(client.request('command/exec', { command: ['true'], outputBytesCap: 10, disableOutputCap: true })).rejects.toEqual(
      error(-32602, 'command/exec cannot set both outputBytesCap and disableOutputCap'),
    )
    await expect(client.request('command/exec', { command: ['true'], timeoutMs: -5 })).rejects.toEqual(
      error(-32602, 'command/exec timeoutMs must be non-negative, got -5'),
    )
    await expect(client.request('command/exec', { command: ['true'], processId: 't', tty: true })).rejects.toEqual(
      error(-32600, expect.stringMatching(/^command\/exec tty is not supported: .*no PTY/)),
    )
    await expect(
      client.request('command/exec', { command: ['true'], sandboxPolicy: { type: 'externalSandbox', networkAccess: 'restricted' } }),
    ).rejects.toEqual(
      error(-32600, expect.stringMatching(/^command\/exec sandboxPolicy `externalSandbox` is not supported by this server/)),
    )
    const full = { sandboxPolicy: { type: 'dangerFullAccess' } }
    await expect(client.request('command/exec', { command: ['no-such-command-xyz'], ...full })).rejects.toEqual(
      error(-32603, 'failed to spawn command: command not found: no-such-command-xyz (ENOENT)'),
    )
    // In the sandbox (the default policy's), the sandbox starts and reports it, as Codex's does (exit 101 there).
    expect(await client.request('command/exec', { command: ['no-such-command-xyz'] })).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('no-such-command-xyz: No such file or directory'),
    })
    await expect(client.request('command/exec', { command: ['pwd'], cwd: '/nonexistent-dir' })).rejects.toEqual(
      error(-32603, 'failed to spawn command: cwd does not exist: /nonexistent-dir (ENOENT)'),
    )
    for (const method of ['command/exec/write', 'command/exec/terminate']) {
      await expect(client.request(method, { processId: 'nope', deltaBase64: b64('x') })).rejects.toEqual(
        error(-32600, 'no active command/exec for process id "nope"'),
      )
    }
    await expect(client.request('command/exec/resize', { processId: 'nope', size: { rows: 5, cols: 5 } })).rejects.toEqual(
      error(-32600, 'no active command/exec for process id "nope"'),
    )
    await expect(client.request('command/exec/resize', { processId: 'nope' })).rejects.toEqual(
      error(-32600, 'Invalid request: missing field `size`'),
    )
    await expect(client.request('command/exec/write', {})).rejects.toEqual(error(-32600, 'Invalid request: missing field `processId`'))
    await expect(client.request('command/exec/write', { processId: 'x' })).rejects.toEqual(
      error(-32602, 'command/exec/write requires deltaBase64 or closeStdin'),
    )
    await expect(client.request('command/exec/write', { processId: 'x', deltaBase64: '!!notbase64' })).rejects.toEqual(
      error(-32602, 'invalid deltaBase64: Invalid symbol 33, offset 0.'),
    )
  })
})

describe('fuzzyFileSearch', () => {
  /** Files laid out as in the Codex run whose results the first test expects. */
  function tree(dir: string, files: string[]): string {
    for (const file of files) {
      mkdirSync(join(dir, file, '..'), { recursive: true })
      writeFileSync(join(dir, file), 'x')
    }
    return dir
  }

  it('scores and orders matches as Codex does (its results for the same tree)', async () => {
    const { client } = await start()
    const dir = tree(join(root, 'search-1'), [
      'src/app/main.ts',
      'src/app/model.ts',
      'src/main',
      'lib/mainly/x.ts',
      'amxaxixn.txt',
      'Main.java',
    ])
    const search = async (query: string) => {
      const { files } = await client.request<{ files: Record<string, unknown>[] }>('fuzzyFileSearch', {
        query,
        roots: [dir],
        cancellationToken: null,
      })
      return files.map((file) => {
        expect(file).toMatchObject({ root: dir, file_name: String(file.path).split('/').at(-1) })
        return [file.path, file.match_type, file.score, (file.indices as number[]).join(',')]
      })
    }
    expect(await search('main')).toEqual([
      ['src/main', 'file', 196717, '4,5,6,7'],
      ['Main.java', 'file', 65645, '0,1,2,3'],
      ['src/app/main.ts', 'file', 65645, '8,9,10,11'],
      ['amxaxixn.txt', 'file', 65591, '1,3,5,7'],
      ['lib/mainly', 'directory', 109, '4,5,6,7'],
      ['lib/mainly/x.ts', 'file', 109, '4,5,6,7'],
    ])
    expect(await search('main.ts')).toEqual([
      ['src/app/main.ts', 'file', 196792, '8,9,10,11,12,13,14'],
      ['lib/mainly/x.ts', 'file', 175, '4,5,6,7,12,13,14'],
    ])
    expect(await search('ap')).toEqual([
      ['src/app', 'directory', 59, '4,5'],
      ['src/app/main.ts', 'file', 59, '4,5'],
      ['src/app/model.ts', 'file', 59, '4,5'],
    ])
    expect(await search('mainly')).toEqual([
      ['lib/mainly', 'directory', 131231, '4,5,6,7,8,9'],
      ['lib/mainly/x.ts', 'file', 159, '4,5,6,7,8,9'],
    ])
    expect(await search('mn')).toEqual([
      ['Main.java', 'file', 65582, '0,3'],
      ['src/app/main.ts', 'file', 65582, '8,11'],
      ['src/main', 'file', 65582, '4,7'],
      ['amxaxixn.txt', 'file', 65561, '1,7'],
      ['lib/mainly', 'directory', 46, '4,7'],
      ['lib/mainly/x.ts', 'file', 46, '4,7'],
    ])
    expect(await search('sam')).toEqual([
      ['src/app/main.ts', 'file', 74, '0,4,8'],
      ['src/app/model.ts', 'file', 74, '0,4,8'],
    ])
    expect(await search('zzzz')).toEqual([])
  })

  it('searches every root, keeps the best 50, and finds nothing for an empty query or a missing root', async () => {
    const { client, cwd } = await start()
    const a = tree(
      join(root, 'search-2a'),
      Array.from({ length: 40 }, (_, i) => `notes/note-${String(i).padStart(2, '0')}.md`),
    )
    tree(
      join(cwd, 'rel'),
      Array.from({ length: 30 }, (_, i) => `deep/note-${i}.txt`),
    )
    const { files } = await client.request<{ files: { root: string; path: string }[] }>('fuzzyFileSearch', {
      query: 'note',
      roots: [a, 'rel'],
    })
    expect(files).toHaveLength(50)
    expect(new Set(files.map((file) => file.root))).toEqual(new Set([a, 'rel']))
    expect(await client.request('fuzzyFileSearch', { query: '', roots: [a], cancellationToken: null })).toEqual({ files: [] })
    expect(await client.request('fuzzyFileSearch', { query: 'note', roots: [], cancellationToken: null })).toEqual({ files: [] })
    expect(await client.request('fuzzyFileSearch', { query: 'note', roots: ['/nonexistent'], cancellationToken: null })).toEqual({
      files: [],
    })
    await expect(client.request('fuzzyFileSearch', { query: 'note' })).rejects.toEqual(
      error(-32600, 'Invalid request: missing field `roots`'),
    )
  })

  it.skipIf(!hasGit())('leaves out what git ignores in a work tree, and .git', async () => {
    const { client } = await start()
    const dir = tree(join(root, 'search-3'), ['src/main.c', 'ignored/main.txt', 'untracked/main.rs', '.hidden/main.h'])
    writeFileSync(join(dir, '.gitignore'), 'ignored/\n')
    execFileSync('git', ['init', '-q'], { cwd: dir })
    execFileSync('git', ['add', 'src/main.c', '.gitignore'], { cwd: dir })
    const { files } = await client.request<{ files: { path: string; match_type: string }[] }>('fuzzyFileSearch', {
      query: 'main',
      roots: [dir],
      cancellationToken: null,
    })
    expect(files.map((file) => file.path).sort()).toEqual(['.hidden/main.h', 'src/main.c', 'untracked/main.rs'])
    const { files: dirs } = await client.request<{ files: { path: string; match_type: string }[] }>('fuzzyFileSearch', {
      query: 'src',
      roots: [dir],
      cancellationToken: null,
    })
    expect(dirs).toContainEqual(expect.objectContaining({ path: 'src', match_type: 'directory' }))
    const { files: git } = await client.request<{ files: unknown[] }>('fuzzyFileSearch', {
      query: 'HEAD',
      roots: [dir],
      cancellationToken: null,
    })
    expect(git).toEqual([])
  })

  it('answers a search a newer one with the same cancellationToken superseded with no files', async () => {
    const { client } = await start()
    const dir = tree(
      join(root, 'search-4'),
      Array.from({ length: 200 }, (_, i) => `d${i % 20}/e${i % 7}/file-${i}.txt`),
    )
    // Both requests in one write: the second arrives while the first still walks the tree.
    const params = { query: 'file', roots: [dir], cancellationToken: 'typing' }
    client.sendRaw(
      `${JSON.stringify({ id: 'first', method: 'fuzzyFileSearch', params })}\n${JSON.stringify({ id: 'second', method: 'fuzzyFileSearch', params })}`,
    )
    await waitUntil(
      () => client.received.filter((message) => message.id === 'first' || message.id === 'second').length === 2,
      'both answers',
    )
    const answer = (id: string) => client.received.find((message) => message.id === id)?.result as { files: unknown[] }
    for (const id of ['first', 'second']) {
      expect(codexSchemaErrors(client.received.find((message) => message.id === id)!, 'fuzzyFileSearch')).toEqual([])
    }
    expect(answer('first')).toEqual({ files: [] })
    expect(answer('second').files).toHaveLength(50)
  })
})

/** How many live processes have `marker` as a whole argument (the sandbox and the command in it), or run `program`. */
function processesWith(marker: string, program?: string): number {
  let count = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (argv.includes(marker) && (program === undefined || argv[0] === program) && isRunning(Number(entry))) count++
    } catch {
      // gone
    }
  }
  return count
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
