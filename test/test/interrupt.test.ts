import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { defineTool } from '@harness-kernel/kernel'
import { afterEach, expect, it } from 'vitest'
import { z } from 'zod'
import { type Harness, harness, plugin, readEvents } from './helpers.js'

let current: Harness | undefined
afterEach(async () => {
  await current?.kernel.dispose()
})

/** A zombie (exited, not yet reaped by PID 1) counts as dead. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

it('interrupt kills the running tool’s process group, fires agent/interrupt and runs no stop hook', async () => {
  const events: string[] = []
  const tool = plugin('sleeper', (kernel) => {
    kernel.registerTool(
      defineTool({
        name: 'sleeper',
        description: 'Sleeps in a shell with a child process.',
        inputSchema: z.object({}),
        async execute(_input, context) {
          const run = context.processRunner.run({
            command: 'sleep 31.7 & wait',
            shell: '/bin/bash',
            cwd: context.cwd,
            signal: context.signal,
          })
          return run.then((result) => ({ output: result.stdout, isError: true }))
        },
      }),
    )
    kernel.hooks.interrupt.tapPromise('observe', async ({ reason }) => {
      events.push(`interrupt:${reason}`)
    })
    kernel.hooks.turnStopping.tap('observe', (decision) => {
      events.push('stop')
      return decision
    })
  })
  current = harness([{ tool_calls: [{ name: 'sleeper', input: {} }] }, { text: 'never' }], [tool])
  const session = await current.kernel.startSession()
  const running = session.run('go')
  // The shell's background child (an unusual duration, so no other test's sleep matches).
  const deadline = Date.now() + 10_000
  let childPid: number | undefined
  while (!childPid && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const out = execSync("pgrep -f '^sleep 31.7$' || true").toString().trim()
    childPid = out ? Number(out.split('\n').at(-1)) : undefined
  }
  expect(childPid).toBeGreaterThan(0)
  session.interrupt('stop now')
  const result = await running
  expect(result).toMatchObject({ status: 'interrupted', reason: 'stop now' })
  expect(alive(childPid!)).toBe(false)
  expect(events).toEqual(['interrupt:stop now'])
  const log = readEvents(session.transcriptPath)
  expect(log.find((event) => event.type === 'tool/result')).toMatchObject({ isError: true })
  expect(log.at(-1)).toMatchObject({ type: 'turn/end', status: 'interrupted' })
})
