/**
 * The harness's settings file, `$HARNESS_HOME/config.json`: the lowest config layer of every command, and what
 * `harness app-server` reads and writes through the App Server's `config/*` methods.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppServerClient } from '@harness-kernel/app-server'
import { afterEach, describe, expect, it } from 'vitest'
import { SETTINGS_KEYS } from '../../transports/app-server/src/methods/settings-keys.js'
import { validateConfig } from '../src/config/validate-config.js'
import { createHarness, type Harness, settingsPath } from '../src/index.js'
import { BIN, project } from './support.js'

const harnesses: Harness[] = []
const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.kernel.dispose()))
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** A harness home holding `settings` as its config.json. */
function home(settings: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-settings-'))
  writeFileSync(join(dir, 'config.json'), typeof settings === 'string' ? settings : JSON.stringify(settings))
  return dir
}

async function compose(options: Parameters<typeof createHarness>[0]): Promise<Harness> {
  const harness = await createHarness({ codex: false, claudeCode: false, ...options })
  harnesses.push(harness)
  return harness
}

describe('the settings file', () => {
  it('is $HARNESS_HOME/config.json, else ~/.harness/config.json', () => {
    expect(settingsPath({ HARNESS_HOME: '/h' })).toBe('/h/config.json')
    expect(settingsPath({ HOME: '/home/u' })).toBe('/home/u/.harness/config.json')
  })

  it('knows the keys of harness.config a JSON file can hold, as the App Server writes them', () => {
    const known = /known keys: (.*)$/.exec(errorOf(() => validateConfig({ nope: 1 })))?.[1]?.split(', ')
    expect([...SETTINGS_KEYS].sort()).toEqual(known?.filter((key) => key !== 'plugins').sort())
  })

  it('is the lowest layer: the config file, HARNESS_MODEL and --model win over it', async () => {
    const cwd = project({ 'script.yaml': '- text: hi\n' })
    const HARNESS_HOME = home({ model: 'scripted:script.yaml', system: 'From settings.', maxStopContinuations: 3 })
    const fromSettings = await compose({ cwd, env: { HARNESS_HOME } })
    expect(fromSettings).toMatchObject({
      model: 'scripted:script.yaml',
      settingsPath: join(HARNESS_HOME, 'config.json'),
      config: { model: 'scripted:script.yaml', system: 'From settings.', maxStopContinuations: 3 },
    })
    expect(fromSettings.kernel.resolve('model').id).toBe('scripted')
    const fromConfigFile = await compose({ cwd, env: { HARNESS_HOME }, config: { system: 'From the config file.', model: undefined } })
    expect(fromConfigFile.config).toMatchObject({ system: 'From the config file.', maxStopContinuations: 3, model: 'scripted:script.yaml' })
    writeFileSync(join(cwd, 'other.yaml'), '- text: other\n')
    expect(await compose({ cwd, env: { HARNESS_HOME, HARNESS_MODEL: 'scripted:other.yaml' } })).toMatchObject({
      model: 'scripted:other.yaml',
    })
    expect(await compose({ cwd, env: { HARNESS_HOME }, model: 'scripted:other.yaml' })).toMatchObject({ model: 'scripted:other.yaml' })
    const none = await compose({ cwd, env: { HARNESS_HOME }, settings: false, requireModel: false })
    expect(none).toMatchObject({ settingsPath: undefined, model: undefined, config: {} })
  })

  it('refuses a file the CLI cannot take, naming it', async () => {
    const cwd = project()
    for (const [settings, problem] of [
      ['{"model": ', /.*JSON/],
      [[], /expected a JSON object/],
      [{ plugins: [] }, /"plugins" cannot be set in a JSON settings file/],
      [{ approval_policy: 'never' }, /unknown config key "approval_policy"/],
      [{ fsync: 'sometimes' }, /"fsync": expected 'steering', 'always' or 'never'/],
      [{ driver: 'bogus' }, /"driver": expected 'native', 'claude-code' or 'codex'/],
    ] as const) {
      const HARNESS_HOME = home(settings)
      await expect(compose({ cwd, env: { HARNESS_HOME }, requireModel: false })).rejects.toThrow(
        new RegExp(`^invalid settings ${join(HARNESS_HOME, 'config.json')}: ${problem.source}`),
      )
    }
    // A value that fits but not with the rest is blamed on the settings file too.
    const HARNESS_HOME = home({ driver: 'claude-code', model: 'scripted:script.yaml' })
    await expect(compose({ cwd, env: { HARNESS_HOME } })).rejects.toThrow(
      `settings ${join(HARNESS_HOME, 'config.json')}: "model" "scripted:script.yaml" names the scripted provider`,
    )
  })

  it('harness app-server writes it through config/value/write, and the next start runs what was written', async () => {
    const cwd = project({ 'script.yaml': '- text: hi\n', 'other.yaml': '- text: other\n' })
    const HARNESS_HOME = join(cwd, 'harness-home')
    mkdirSync(HARNESS_HOME)
    const env: NodeJS.ProcessEnv = { ...process.env, HARNESS_HOME, CODEX_HOME: join(cwd, 'codex-home') }
    delete env.HARNESS_MODEL
    const first = AppServerClient.spawn(process.execPath, [BIN, 'app-server', '--model', 'scripted:script.yaml'], {
      cwd,
      env,
      stderr: 'pipe',
    })
    clients.push(first)
    await first.initialize()
    expect(
      await first.request('config/value/write', { keyPath: 'model', value: 'scripted:other.yaml', mergeStrategy: 'replace' }),
    ).toMatchObject({
      status: 'ok',
      filePath: join(HARNESS_HOME, 'config.json'),
    })
    await expect(
      first.request('config/value/write', { keyPath: 'approval_policy', value: 'never', mergeStrategy: 'replace' }),
    ).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('unknown field `approval_policy`'),
    })
    await first.close()
    // No --model this time: the settings file's model runs.
    const second = AppServerClient.spawn(process.execPath, [BIN, 'app-server'], { cwd, env, stderr: 'pipe' })
    clients.push(second)
    await second.initialize()
    const { thread } = await second.startThread()
    const { turn } = await second.startTurn(thread.id, 'hello')
    const { turn: done } = await second.turnCompleted(thread.id, turn.id)
    expect(done.items).toMatchObject([{ type: 'agentMessage', text: 'other' }])
  }, 30_000)
})

function errorOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected an error')
}
