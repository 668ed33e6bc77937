import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppServerClient } from '@harness-kernel/app-server'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, harness, project, readEvents, sessionsIn } from './support.js'

// Each step reports 90 in and 20 out tokens: 110 a step.
const SCRIPT = `steps:
  - text: Checking.
    tool_calls:
      - name: shell
        input: { command: "echo one" }
    usage: { inputTokens: 90, outputTokens: 20 }
  - text: Done.
    usage: { inputTokens: 90, outputTokens: 20 }
`
const run = (args: string[], cwd: string) => harness(['run', 'go', '--model', 'scripted:script.yaml', ...args], { cwd })

describe('harness run: budgets', () => {
  it('--max-turn-tokens halts the turn at the step that reaches it: the reason on stderr, exit 3, no command run', async () => {
    const cwd = project({ 'script.yaml': SCRIPT })
    const result = await run(['--max-turn-tokens', '100', '--json'], cwd)
    expect(result.code).toBe(3)
    expect(JSON.parse(result.stdout).turn).toMatchObject({ status: 'halted', reason: 'turn token budget of 100 reached: 110 used' })
    expect(result.stderr).toContain('turn halted: turn token budget of 100 reached: 110 used')
    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    const events = readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`))
    expect(events.filter((event) => event.type === 'tool/call')).toEqual([])
  })

  it('--max-tokens counts the whole session: a resumed session over it halts at the turn’s start', async () => {
    const cwd = project({ 'script.yaml': SCRIPT })
    expect((await run(['--max-tokens', '1000'], cwd)).code).toBe(0)
    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    const resumed = await run(['--resume', id as string, '--max-tokens', '200'], cwd)
    expect(resumed.code).toBe(3)
    expect(resumed.stderr).toContain('turn halted: session token budget of 200 reached: 220 used')
  })

  it('takes the config file’s budgets, with a flag’s limit over the config’s', async () => {
    const config = `export default { budgets: { turn: { maxTokens: 100 } } }\n`
    const cwd = project({ 'script.yaml': SCRIPT, 'harness.config.mjs': config })
    expect((await run([], cwd)).stderr).toContain('turn token budget of 100 reached: 110 used')
    expect((await run(['--max-turn-tokens', '1000'], cwd)).code).toBe(0)
  })

  it('exits 2 naming a bad value, before anything runs', async () => {
    const cwd = project({ 'script.yaml': SCRIPT })
    for (const [flag, value, expected] of [
      ['--max-tokens', 'lots', 'harness: --max-tokens: expected a whole number of tokens > 0, got "lots"'],
      ['--max-turn-tokens', '2.5', 'harness: --max-turn-tokens: expected a whole number of tokens > 0, got "2.5"'],
      ['--max-cost-usd', '0', 'harness: --max-cost-usd: expected an amount of USD > 0 (such as 2.50), got "0"'],
      ['--max-turn-cost-usd', '-1', 'harness: --max-turn-cost-usd: expected an amount of USD > 0 (such as 2.50), got "-1"'],
    ] as const) {
      const result = await run([flag, value], cwd)
      expect(result.code, flag).toBe(2)
      expect(result.stderr.trim()).toBe(expected)
    }
    expect(sessionsIn(join(cwd, '.harness/sessions'))).toEqual([])
    const badConfig = project({
      'script.yaml': SCRIPT,
      'harness.config.mjs': 'export default { budgets: { session: { maxCostUsd: -2 } } }\n',
    })
    const result = await run([], badConfig)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('budgets.session.maxCostUsd must be a number of USD > 0, got -2')
  })
})

describe('harness app-server: budgets', () => {
  const clients: AppServerClient[] = []
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close()
  })

  it('takes the same flags: a turn over --max-turn-tokens halts, the client is told why, no command runs', async () => {
    const cwd = project({ 'script.yaml': SCRIPT })
    const homes = mkdtempSync(join(tmpdir(), 'harness-app-server-budget-homes-'))
    const client = AppServerClient.spawn(
      process.execPath,
      [BIN, 'app-server', '--model', 'scripted:script.yaml', '--max-turn-tokens', '100'],
      { cwd, env: { ...process.env, CODEX_HOME: homes, HARNESS_HOME: homes }, stderr: 'pipe' },
    )
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    await client.turnCompleted(thread.id, turn.id)
    const warnings = client.notifications.filter((entry) => entry.method === 'warning').map((entry) => entry.params.message)
    expect(warnings).toContain('turn halted: turn token budget of 100 reached: 110 used')
    const items = client.notifications
      .filter((entry) => entry.method === 'item/completed')
      .map((entry) => entry.params.item as { type: string })
    expect(items.map((item) => item.type)).not.toContain('commandExecution')
  }, 30_000)

  it('exits 2 naming a bad value, before it serves', async () => {
    const cwd = project({ 'script.yaml': SCRIPT })
    const result = await harness(['app-server', '--model', 'scripted:script.yaml', '--max-cost-usd', 'free'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr.trim()).toBe('harness: --max-cost-usd: expected an amount of USD > 0 (such as 2.50), got "free"')
  })
})
