import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog } from './support/driver-harness.js'

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('Claude Code missing or exiting', () => {
  it('a missing binary fails the turn with a message naming the path; the next turn tries again', async () => {
    current = await driverHarness({ driver: { executable: '/nonexistent/claude' } })
    const session = await current.kernel.startSession()
    const result = await session.run('hello')
    expect(result.status).toBe('failed')
    expect(result.error).toBe("Claude Code is not installed at /nonexistent/claude (the driver's `executable` option)")
    const again = await session.run('hello again')
    expect(again.status).toBe('failed')
    const notices = readLog(session.transcriptPath).filter((event) => event.type === 'notice' && event.level === 'error')
    expect(notices).toHaveLength(2)
  })

  it('Claude Code exiting during a turn fails it with its stderr tail in the message', async () => {
    const fake = join(process.env.TMPDIR ?? '/tmp', `fake-claude-${process.pid}.sh`)
    writeFileSync(fake, '#!/bin/sh\necho "fatal: the config is broken beyond repair" >&2\nexit 3\n')
    chmodSync(fake, 0o755)
    current = await driverHarness({ driver: { executable: fake } })
    const session = await current.kernel.startSession()
    const result = await session.run('hello')
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^Claude Code (exited|ended the session)/)
    expect(result.error).toContain('fatal: the config is broken beyond repair')
  })
})
