/**
 * Hanging hook commands leave no process behind: Codex and Claude Code handlers that hang (in the foreground, with a
 * background child, or ignoring SIGTERM) past a 1 s timeout have their whole process group killed. The processes are
 * found in /proc by a marker in their environment, not by waiting. `npm run bench -- reliability` runs 1,000.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { runHangingHooks } from '../../bench/src/reliability/hanging-hooks.js'
import { liveProcessesWithMarker } from '../../bench/src/reliability/live-processes.js'

describe('hanging hooks', () => {
  // Six: each way of hanging once per dialect. Fifty starting at once on a loaded machine could miss their 1 s timeout
  // before writing their pid; the bench runs 1,000.
  it('6 hanging Codex and Claude Code hooks time out and leave no process alive', async () => {
    const marker = `hk-hang-${randomUUID()}`
    const result = await runHangingHooks({ hooks: 6, marker })
    expect(result.orphans).toEqual([])
    expect(result.started).toBe(6)
    expect(result.timedOut).toBe(6)
    expect(result.turnStatus).toBe('completed')
  })

  it('the /proc scan finds a live process by the marker in its environment, and not once it is dead', async () => {
    const marker = `hk-hang-${randomUUID()}`
    const child = spawn('sleep', ['1000'], { env: { ...process.env, HK_RELIABILITY_MARK: marker }, stdio: 'ignore' })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    expect(await liveProcessesWithMarker(marker)).toEqual([{ pid: child.pid, command: 'sleep 1000' }])
    child.kill('SIGKILL')
    await exited
    expect(await liveProcessesWithMarker(marker)).toEqual([])
  })
})
