import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKernel,
  defineTool,
  guardrails,
  type Kernel,
  type ModelProvider,
  type NoticePayload,
  type SessionEvent,
} from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PostgresSessionLock, PostgresSessionStore } from '../src/index.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()
const kernels: Kernel[] = []
afterEach(async () => {
  await Promise.allSettled(kernels.splice(0).map((kernel) => kernel.dispose()))
})

/** Asked to sleep, calls `sleep` once, then answers; asked anything else, answers. */
const sleepyModel: ModelProvider = {
  id: 'sleepy',
  async generate(request) {
    const asked = JSON.stringify(request.messages.findLast((message) => message.role === 'user')?.content)
    const called = request.messages.at(-1)?.role === 'tool'
    if (!asked.includes('sleep') || called) return { content: [{ type: 'text', text: 'done' }] }
    return { content: [{ type: 'tool_call', id: `call-${Date.now()}`, name: 'sleep', input: {} }] }
  },
}

/** A kernel on `store` (a "process" of its own); its `sleep` tool runs `sleep 30` and reports the pid. */
function kernelOn(store: PostgresSessionStore) {
  const locks: PostgresSessionLock[] = []
  const lock = store.lock.bind(store)
  store.lock = async (id: string) => {
    const taken = await lock(id)
    locks.push(taken)
    return taken
  }
  let started!: (pid: number) => void
  const sleeping = new Promise<number>((resolve) => {
    started = resolve
  })
  const notices: NoticePayload[] = []
  const sleepTool = defineTool({
    name: 'sleep',
    description: 'Sleeps for 30 seconds.',
    inputSchema: z.object({}),
    async execute(_input, context) {
      const result = await context.processRunner.run({ command: 'sleep', args: ['30'], cwd: context.cwd, onStart: started })
      return { output: `signal ${result.signal}`, isError: false }
    },
  })
  const kernel = createKernel(
    [
      {
        name: 'postgres-test',
        setup: (api) => {
          api.provide('sessionStore', store)
          api.provide('model', sleepyModel)
          api.registerTool(sleepTool)
          api.hooks.notice.tap('test', (notice) => {
            notices.push(notice)
          })
        },
      },
      guardrails({ sandbox: 'danger-full-access' }),
    ],
    { cwd: mkdtempSync(join(tmpdir(), 'store-postgres-kernel-')) },
  )
  kernels.push(kernel)
  return { kernel, locks, sleeping, notices }
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

describe('a thread taken over by another kernel', () => {
  it('the new owner repairs the open turn; the stalled old owner is fenced off, its turn interrupted and its process killed', async () => {
    const schema = database.freshSchema()
    const first = kernelOn(database.store({ schema, leaseMs: 600 }))
    const second = kernelOn(database.store({ schema, leaseMs: 15_000 }))
    const session = await first.kernel.startSession({ id: 'thread-1' })
    const turn = session.run('sleep a while')
    const pid = await first.sleeping

    // The first kernel stalls (no renewal, as a SIGSTOPped process) until its lease runs out by the database's clock.
    const [lease] = first.locks
    lease!.pauseRenewal()
    await waitFor(async () => {
      const [row] = await database.sql<{ expired: boolean }>(
        `SELECT lease_until <= now() AS expired FROM "${schema}".threads WHERE id = $1`,
        ['thread-1'],
      )
      return row?.expired === true
    }, 'the first lease to run out')

    const resumed = await second.kernel.resumeSession('thread-1')
    expect(second.locks[0]!.epoch).toBe(lease!.epoch + 1)
    expect(second.notices.map((notice) => notice.text)).toContainEqual(
      expect.stringMatching(
        /^took over session thread-1 \(postgres:\/\/.*\) at epoch 2: the lease of pid \d+ on .+, which took it at .+, ran out$/,
      ),
    )

    // The first kernel wakes up: its next renewal finds the epoch moved on, and the session is lost there.
    lease!.resumeRenewal()
    const result = await turn
    expect(result.status).toBe('interrupted')
    expect(result.reason).toMatch(/^session thread-1 was taken over by another process \(epoch now 2, ours 1\)/)
    await waitFor(async () => gone(pid), `pid ${pid} to be gone`)

    // The new owner goes on; its turn ends once what it wrote is committed (the log writes behind).
    expect((await resumed.run('hello again')).status).toBe('completed')

    // The log: the first kernel's events up to the take-over (epoch 1), then only the new owner's (epoch 2).
    const rows = await database.sql<{ seq: string; epoch: string; body: SessionEvent }>(
      `SELECT seq, epoch, body FROM "${schema}".events WHERE thread_id = $1 ORDER BY seq`,
      ['thread-1'],
    )
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1))
    const epochs = rows.map((row) => Number(row.epoch))
    expect(epochs).toEqual([...epochs].sort((a, b) => a - b))
    // On this host the new owner also kills what the old one left running (its process ledger), and says so.
    const afterTakeOver = rows.filter((row) => Number(row.epoch) === 2).map((row) => row.body)
    expect(afterTakeOver.slice(0, 5)).toMatchObject([
      { type: 'notice', text: expect.stringMatching(/^took over session thread-1/) },
      { type: 'notice', text: expect.stringContaining(`left processes running: `) },
      { type: 'tool/result', isError: true },
      { type: 'turn/end', status: 'interrupted' },
      { type: 'session/resume' },
    ])

    const { events } = await second.kernel.resolve('sessionStore').load('thread-1')
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', status: 'completed' })
  })
})
