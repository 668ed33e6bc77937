import { spawn } from 'node:child_process'
import type { SpawnOptions } from '@anthropic-ai/claude-agent-sdk'
import type { Session } from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness } from './support/driver-harness.js'

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('the environment option: variables for one session, over env', () => {
  it("is asked with the session when Claude Code starts, and what it gives is Claude Code's environment over env", async () => {
    const spawned: Record<string, string | undefined>[] = []
    const asked: Session[] = []
    const spawnClaudeCodeProcess = (options: SpawnOptions) => {
      spawned.push(options.env)
      return spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
    }
    current = await driverHarness({
      driver: {
        queryOptions: { spawnClaudeCodeProcess },
        environment: (session) => {
          asked.push(session)
          return { TRACEPARENT: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, DISABLE_TELEMETRY: undefined, IS_SANDBOX: '1' }
        },
      },
    })
    const session = await current.kernel.startSession()
    expect((await session.run('hello')).status).toBe('completed')
    expect((await session.run('again')).status).toBe('completed')
    await session.end()
    // One process for the session, started at its first turn: asked once, with that session.
    expect(asked).toEqual([session])
    expect(spawned).toHaveLength(1)
    expect(spawned[0]).toMatchObject({ TRACEPARENT: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, ANTHROPIC_BASE_URL: current.server.url })
    // `undefined` removes what `env` set, as in `env` itself.
    expect(current.env.DISABLE_TELEMETRY).toBe('1')
    expect(spawned[0]).not.toHaveProperty('DISABLE_TELEMETRY')
  })
})
