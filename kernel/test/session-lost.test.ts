import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createKernel, defineTool, guardrails, type ModelProvider, type NoticePayload, type Session } from '../src/index.js'
import { plugin, tempDir } from './helpers.js'
import { MemorySessionStore } from './support/memory-session-store.js'

/** Asked to sleep, calls `sleep` once, then answers; asked anything else, answers. */
const sleepyModel: ModelProvider = {
  id: 'sleepy',
  async generate(request) {
    const asked = JSON.stringify(request.messages.findLast((message) => message.role === 'user')?.content)
    const called = request.messages.some((message) => message.role === 'tool')
    if (!asked.includes('sleep') || called) return { content: [{ type: 'text', text: 'done' }] }
    return { content: [{ type: 'tool_call', id: 'call-1', name: 'sleep', input: {} }] }
  },
}

/** A kernel over a fencing in-memory store; its tool `sleep` runs `sleep 30` and says when it started (its pid). */
function lostKernel() {
  const store = new MemorySessionStore()
  let started!: (pid: number) => void
  const sleeping = new Promise<number>((resolve) => {
    started = resolve
  })
  const ends: { session: Session; reason: string }[] = []
  let noticed!: (notice: NoticePayload) => void
  const lostNotice = new Promise<NoticePayload>((resolve) => {
    noticed = resolve
  })
  const sleepTool = defineTool({
    name: 'sleep',
    description: 'Sleeps for 30 seconds.',
    inputSchema: z.object({}),
    async execute(_input, context) {
      // The turn's signal is left out: only the kill of the session's process groups can end this run early.
      const result = await context.processRunner.run({ command: 'sleep', args: ['30'], cwd: context.cwd, onStart: started })
      return { output: `signal ${result.signal}`, isError: false }
    },
  })
  const kernel = createKernel(
    [
      plugin('lost-store', (api) => {
        api.provide('sessionStore', store)
        api.provide('model', sleepyModel)
        api.registerTool(sleepTool)
        api.hooks.notice.tap('test', (notice) => {
          if (notice.level === 'error' && notice.source === 'kernel') noticed(notice)
        })
        api.hooks.sessionEnd.tapPromise('test', async ({ session, reason }) => {
          ends.push({ session, reason })
        })
      }),
      guardrails({ sandbox: 'danger-full-access' }),
    ],
    { cwd: tempDir() },
  )
  return { store, kernel, sleeping, lostNotice, ends }
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

describe('a session whose log is lost to another process', () => {
  it('interrupts its turn, kills its processes, tells the notice hook and ends without writing or releasing', async () => {
    const { store, kernel, sleeping, lostNotice, ends } = lostKernel()
    const session = await kernel.startSession({ id: 'taken' })
    const turn = session.run('sleep a while')
    const pid = await sleeping
    expect(gone(pid)).toBe(false)
    const written = (await store.load('taken')).events
    expect(written.at(-1)).toMatchObject({ type: 'tool/call', name: 'sleep' })

    await store.takeOver('taken')
    const reason = 'session taken was taken over by another process (epoch 2); this process stopped writing session taken'
    expect(await turn).toMatchObject({ status: 'interrupted', reason })
    const notice = await lostNotice
    expect(notice.text).toBe(`${reason}; killed process group ${pid} (\`sleep 30\`)`)
    expect(gone(pid)).toBe(true)

    await kernel.dispose()
    expect(ends).toEqual([{ session, reason: 'lost' }])
    // Not a line after the take-over (the tool's result, the turn's end, the notice, the session's end)…
    expect((await store.load('taken')).events).toEqual(written)
    // …and the lock, another process's now, was never released from here.
    expect(store.released).toEqual([])
    await expect(store.lock('taken')).rejects.toThrow(/is locked by/)
  })

  it('an idle session ends at once; what is asked of it afterwards names the loss', async () => {
    const { store, kernel, lostNotice, ends } = lostKernel()
    const session = await kernel.startSession({ id: 'idle' })
    const other = await kernel.startSession({ id: 'other' })
    const written = (await store.load('idle')).events
    await store.takeOver('idle')
    const notice = await lostNotice
    expect(notice).toMatchObject({
      session,
      text: 'session idle was taken over by another process (epoch 2); this process stopped writing session idle',
    })
    expect(() => session.steer('more')).toThrow('session idle was lost (session idle was taken over by another process (epoch 2))')
    await expect(session.run('more')).rejects.toThrow('session idle was lost')
    expect((await other.run('still here')).status).toBe('completed')
    await kernel.dispose()
    expect(ends).toEqual([
      { session, reason: 'lost' },
      { session: other, reason: 'dispose' },
    ])
    expect((await store.load('idle')).events).toEqual(written)
    // Only the session this kernel still held was released: `other`'s first lock (epoch 1 of its own).
    expect(store.released).toEqual([1])
    expect((await store.load('other')).events.at(-1)).toMatchObject({ type: 'session/end', reason: 'dispose' })
  })
})
