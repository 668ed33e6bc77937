import type { ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { processesNamed } from '../../kernel/test/support/marked-processes.js'
import { harness, project, readEvents, sessionsIn } from './support.js'

/**
 * `harness run` whose model has the shell tool start two marked sleeps; SIGKILLed once both run. Without the sandbox:
 * a sandboxed command dies with its kernel (kernel/test/process-reap.test.ts), what is reaped is what runs outside it.
 */
async function crashedRun(cwd: string, marker: string): Promise<void> {
  let child: ChildProcess | undefined
  const args = ['run', 'start the sleeps', '--model', 'scripted:script.yaml', '--dangerously-bypass-approvals-and-sandbox']
  const run = harness(args, {
    cwd,
    onSpawn: (spawned) => {
      child = spawned
    },
  })
  // Killed only once the processes run and the kernel has recorded their group (its ledger is written as the spawn
  // is reported, which on a loaded machine can come after the processes are already up).
  const recorded = () => {
    const dir = join(cwd, '.harness/sessions')
    return (
      existsSync(dir) &&
      readdirSync(dir).some((name) => name.endsWith('.processes') && readFileSync(join(dir, name), 'utf8').includes('"start"'))
    )
  }
  while (processesNamed(marker).length < 2 || !recorded()) await new Promise((resolve) => setTimeout(resolve, 10))
  child?.kill('SIGKILL')
  expect((await run).signal).toBe('SIGKILL')
}

describe.skipIf(process.platform !== 'linux')('harness sessions reap', () => {
  it("kills the shell tool's processes a SIGKILLed `harness run` left, and only once", async () => {
    const marker = `hk-cli-reap-${process.pid}`
    const command = `(exec -a ${marker}-background sleep 300) & exec -a ${marker}-leader sleep 300`
    const cwd = project({
      'script.yaml': `steps:\n  - tool_calls:\n      - name: shell\n        input: { command: ${JSON.stringify(command)} }\n  - text: done\n`,
    })
    try {
      await crashedRun(cwd, marker)
      expect(processesNamed(marker)).toHaveLength(2)

      const reaped = await harness(['sessions', 'reap'], { cwd })
      expect(reaped.stderr).toBe('')
      expect(reaped.code).toBe(0)
      const [id] = sessionsIn(`${cwd}/.harness/sessions`)
      expect(reaped.stdout).toMatch(
        new RegExp(
          `^${id}: killed process group \\d+ \\(\`\\(exec -a ${marker}-background sleep 300\\) & exec -a ${marker}-leader sleep 300\`, started .*\\): 2 processes \\(pid \\d+, \\d+\\)\\n$`,
        ),
      )
      expect(processesNamed(marker)).toEqual([])

      const again = await harness(['sessions', 'reap', '--json'], { cwd })
      expect(JSON.parse(again.stdout)).toEqual([])
      // The session resumes without a notice: nothing is left for it to reap.
      const log = readEvents(`${cwd}/.harness/sessions/${id}.jsonl`)
      expect(log.some((event) => event.type === 'notice' && event.text.includes('left processes running'))).toBe(false)
    } finally {
      for (const pid of processesNamed(marker)) process.kill(pid, 'SIGKILL')
    }
  })

  it('says so when nothing is left, and names the holder of a session open elsewhere', async () => {
    const cwd = project({ 'short.yaml': '- text: short answer\n' })
    expect((await harness(['run', 'hi', '--model', 'scripted:short.yaml'], { cwd })).code).toBe(0)
    const nothing = await harness(['sessions', 'reap'], { cwd })
    expect(nothing.stdout).toBe(`nothing left running by a crashed kernel in ${cwd}/.harness/sessions\n`)

    const [id] = sessionsIn(`${cwd}/.harness/sessions`)
    const holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
    writeFileSync(`${cwd}/.harness/sessions/${id}.lock`, `${JSON.stringify(holder)}\n`)
    const held = await harness(['sessions', 'reap', id!], { cwd })
    expect(held.code).toBe(0)
    expect(held.stdout).toContain(`${id}: not reaped: session ${id} is open in another process (pid ${process.pid} on ${holder.host}`)
    // Listing every session skips one a live process holds without a word.
    expect((await harness(['sessions', 'reap'], { cwd })).stdout).toBe(nothing.stdout)
  })
})
