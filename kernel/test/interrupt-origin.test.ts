import { afterEach, describe, expect, it } from 'vitest'
import { createKernel, type InterruptPayload, type Kernel, type ModelProvider, type Session } from '../src/index.js'
import { plugin, tempDir } from './helpers.js'

/** A model that answers nothing until the turn is interrupted; `asked` settles once a request is waiting. */
function waitingModel(): { model: ModelProvider; asked: Promise<void> } {
  let markAsked: () => void = () => {}
  const asked = new Promise<void>((resolve) => {
    markAsked = resolve
  })
  const model: ModelProvider = {
    id: 'waiting',
    generate: (_request, { signal }) =>
      new Promise((_resolve, reject) => {
        markAsked()
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      }),
  }
  return { model, asked }
}

let kernel: Kernel | undefined
afterEach(async () => {
  await kernel?.dispose()
  kernel = undefined
})

async function interruptedPayload(interrupt: (session: Session) => void): Promise<InterruptPayload[]> {
  const { model, asked } = waitingModel()
  const seen: InterruptPayload[] = []
  kernel = createKernel(
    [
      plugin('model', (api) => api.provide('model', model)),
      plugin('observer', (api) => api.hooks.interrupt.tap('observer', (payload) => void seen.push(payload))),
    ],
    { cwd: tempDir() },
  )
  const session = await kernel.startSession()
  const running = session.run('go')
  await asked
  interrupt(session)
  expect((await running).status).toBe('interrupted')
  return seen
}

describe('agent/interrupt carries what the caller of session.interrupt() said about it', () => {
  it('the origin given is the payload’s origin', async () => {
    const seen = await interruptedPayload((session) => session.interrupt('a hook denied it', { by: 'system', cause: 'permission-denied' }))
    expect(seen.map(({ reason, origin }) => ({ reason, origin }))).toEqual([
      { reason: 'a hook denied it', origin: { by: 'system', cause: 'permission-denied' } },
    ])
  })

  it('no origin given: none in the payload', async () => {
    const seen = await interruptedPayload((session) => session.interrupt())
    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toHaveProperty('origin')
  })
})
