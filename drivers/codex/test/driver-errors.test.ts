import { execFileSync } from 'node:child_process'
import { newInput, type RecordedRequest, userTexts, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, callDirective, codexHarness, readLog } from './support/driver-harness.js'
import { parkDirective, parkTool } from './support/park-tool.js'
import { wireLog } from './support/wire.js'

// Observed against Codex 0.169.0 (`codex app-server`).
let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

/** The `codex app-server` processes this test process started. */
function appServers(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'app-server'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number)
  } catch {
    return []
  }
}

const noticesOf = (path: string) => readLog(path).flatMap((event) => (event.type === 'notice' ? [`${event.level}: ${event.text}`] : []))
/** The steer's deadline passed: its ambiguity notice is in the log. */
const ambiguous = (path: string) => noticesOf(path).some((notice) => notice.startsWith('error: steering/ambiguous:'))

describe('a Codex that fails', () => {
  it('a missing binary fails the turn naming the path; nothing is recorded as sent', async () => {
    current = await codexHarness({ driver: { executable: '/nonexistent/codex' } })
    const session = await current.kernel.startSession()
    const receipt = session.steer('queued before the turn')
    const result = await session.run('hello')
    expect(result.status).toBe('failed')
    expect(result.error).toContain('codex app-server could not start (/nonexistent/codex)')
    expect(result.error).toContain('ENOENT')
    // The claimed steer was never sent: it is the host's again.
    expect(receipt.state()).toBe('returned')
    expect(current.server.requests).toHaveLength(0)
  })

  it('Codex killed mid-turn: the turn fails naming the exit, an unrecorded steer goes back, the next turn resumes the thread in a new process', async () => {
    const park = parkTool()
    const wire = wireLog()
    current = await codexHarness({ plugins: [park.plugin], driver: { onProtocolMessage: wire.onProtocolMessage } })
    const session = await current.kernel.startSession()
    const running = session.run(`Crash ${parkDirective('c')}`)
    await park.parked(0)
    const [pid] = appServers()
    expect(pid).toBeGreaterThan(0)
    const receipt = session.steer('STEER before the crash')
    await new Promise<void>((resolve) =>
      wire.at((entry) => entry.direction === 'in' && entry.message.id === wire.sent('turn/steer')[0]?.id, resolve),
    )
    process.kill(pid as number, 'SIGKILL')
    const result = await running
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^codex app-server exited \(signal SIGKILL\)/)
    expect(receipt.state()).toBe('returned')
    // The parked call stopped with its turn: its result is in the log before the turn's end.
    const log = readLog(session.transcriptPath)
    const resultAt = log.findIndex((event) => event.type === 'tool/result' && event.output === 'aborted')
    const endAt = log.findIndex((event) => event.type === 'turn/end')
    expect(resultAt).toBeGreaterThan(0)
    expect(resultAt).toBeLessThan(endAt)

    const next = await session.run('After the crash')
    expect(next.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(wire.sent('thread/resume')).toHaveLength(1)
    expect(appServers()).not.toContain(pid)
    const last = current.server.requests.at(-1) as RecordedRequest
    // Codex 0.169.0 closes the call the crash left open (output `aborted`) when it resumes the thread.
    expect(newInput(last)).toEqual(['output:aborted', 'user:After the crash', 'user:STEER before the crash'])
    expect(userTexts(last).filter((text) => text === 'STEER before the crash')).toHaveLength(1)
  })

  it('a turn/steer Codex does not answer in time is ambiguous: an error notice, never re-sent; recorded if Codex records it after all', async () => {
    const park = parkTool()
    const wire = wireLog()
    current = await codexHarness({ plugins: [park.plugin], driver: { onProtocolMessage: wire.onProtocolMessage, steerTimeoutMs: 200 } })
    const session = await current.kernel.startSession()
    const running = session.run(`Stall ${parkDirective('s')}`)
    const call = await park.parked(0)
    const [pid] = appServers()
    // Codex stops reading: the steer gets no answer by its deadline.
    process.kill(pid as number, 'SIGSTOP')
    const receipt = session.steer('STEER into a stalled Codex')
    await waitUntil(() => ambiguous(session.transcriptPath), 'the steer to be reported ambiguous', { boundMs: 60_000 })
    process.kill(pid as number, 'SIGCONT')
    call.release()
    const result = await running
    // Codex took the steer late; its userMessage receipt records it, once.
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(result.status).toBe('completed')
    expect(wire.sent('turn/steer')).toHaveLength(1)
    expect(noticesOf(session.transcriptPath)).toContainEqual(
      expect.stringMatching(
        /^error: steering\/ambiguous: turn\/steer \S+ got no answer within 200 ms; it is recorded if Codex records it, and never re-sent$/,
      ),
    )
    expect(
      userTexts(current.server.requests.at(-1) as RecordedRequest).filter((text) => text === 'STEER into a stalled Codex'),
    ).toHaveLength(1)
  })

  it('an ambiguous steer Codex never records fails the turn with steering/ambiguous, and is not re-sent', async () => {
    const park = parkTool()
    const wire = wireLog()
    current = await codexHarness({ plugins: [park.plugin], driver: { onProtocolMessage: wire.onProtocolMessage, steerTimeoutMs: 200 } })
    const session = await current.kernel.startSession()
    const running = session.run(`Stall ${parkDirective('s')}`)
    await park.parked(0)
    const [pid] = appServers()
    process.kill(pid as number, 'SIGSTOP')
    const receipt = session.steer('STEER lost with Codex')
    await waitUntil(() => ambiguous(session.transcriptPath), 'the steer to be reported ambiguous', { boundMs: 60_000 })
    process.kill(pid as number, 'SIGKILL')
    const result = await running
    expect(result.status).toBe('failed')
    expect(result.error).toContain('codex app-server exited (signal SIGKILL)')
    expect(result.error).toContain('steering/ambiguous')
    await expect(receipt).resolves.toMatchObject({ state: 'dropped' })
    const next = await session.run('Go on')
    expect(next.status).toBe('completed')
    expect(wire.sent('turn/steer')).toHaveLength(1)
    expect(userTexts(current.server.requests.at(-1) as RecordedRequest)).not.toContain('STEER lost with Codex')
  })

  it('the driver refuses approvalPolicy "untrusted" and a base URL that is not http(s)', async () => {
    const { codexDriver } = await import('../src/index.js')
    expect(() => codexDriver({ approvalPolicy: 'untrusted' as never })).toThrow(/approvalPolicy "untrusted" is not supported/)
    expect(() => codexDriver({ provider: { baseUrl: 'localhost:8080' } })).toThrow(/provider.baseUrl must be an http\(s\) URL/)
    void callDirective
  })
})
