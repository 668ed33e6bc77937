/**
 * One writer per session log, end to end: while one process (the build) holds a session mid-turn, a second process
 * resuming it is refused with an error naming the holder, and appends nothing. kernel/test/session-lock.test.ts has
 * the detailed cases (stale locks, other hosts, one process).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionChild } from '../../bench/src/reliability/session-child.js'

const children: SessionChild[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.process.exitCode === null) await child.kill()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function child(dir: string, cwd: string): SessionChild {
  const made = new SessionChild({ dir, cwd, id: 'shared' })
  children.push(made)
  return made
}

describe('two writers', () => {
  it('a second process resuming an open session is refused, naming the holder; the log is unchanged by it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-reliability-writers-'))
    dirs.push(dir)
    const cwd = join(dir, 'project')
    mkdirSync(cwd)
    const path = join(cwd, '.harness', 'sessions', 'shared.jsonl')
    const first = child(dir, cwd)
    first.send('start')
    expect(await first.next('ready')).toEqual({ event: 'ready', pid: first.pid })
    first.send('hold')
    await first.next('sampling')
    const before = readFileSync(path, 'utf8')

    const second = child(dir, cwd)
    second.send('resume')
    const refused = await second.next('ready')
    expect(refused).toMatchObject({ event: 'error', name: 'KernelError' })
    expect(refused.message).toContain(`session shared is open in another process (pid ${first.pid} on ${hostname()}`)
    second.send('exit')
    await second.exited
    expect(readFileSync(path, 'utf8')).toBe(before)

    first.send('answer')
    expect(await first.next('turn')).toEqual({ event: 'turn', status: 'completed' })
    first.send('end')
    await first.next('ended')
    const types = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type)
    expect(types.filter((type) => type === 'session/resume')).toEqual([])
    expect(types.at(-1)).toBe('session/end')
  })
})
