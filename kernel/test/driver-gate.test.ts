import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  assistantMessage,
  type Boundary,
  type BoundaryKind,
  contextMessage,
  createKernel,
  type Driver,
  type DriverSessionContext,
  definePlugin,
  type Kernel,
  KernelError,
  nativeDriver,
  type Plugin,
  type SessionEvent,
  type SteeringSource,
  textOf,
} from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach, describe, expect, it } from 'vitest'
import { echoTool } from './helpers.js'

/** A driver that brings its own model and answers every turn with `ok`. */
function ownModelDriver(overrides: Partial<Driver> = {}): Driver {
  return {
    specificationVersion: 'v1',
    id: 'double',
    capabilities: {
      points: { 'agent/pre-step': 'decides', 'tools/pre-execute': 'decides', 'agent/turn-stopping': 'decides' },
      boundaries: ['tool'],
      finalInputContinuesTurn: false,
      toolHosting: 'mcp',
      resume: 'native-id',
      model: 'own',
    },
    async open() {
      return {
        async runTurn(request, host) {
          const claimed = await host.claim({ kind: 'sampling', step: 1 })
          ;(await host.enter({ step: 1, messages: [...request.input, ...claimed.messages], claimed })).record()
          host.recordMessage(assistantMessage([{ type: 'text', text: 'ok' }]))
          return { status: 'completed' }
        },
        async close() {},
      }
    },
    ...overrides,
  }
}

const kernels: Kernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
})

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'hk-driver-gate-'))
}

function kernelOf(plugins: Plugin[], cwd = tempDir()): Kernel {
  const kernel = createKernel(plugins, { cwd })
  kernels.push(kernel)
  return kernel
}

function driverPlugin(driver: Driver): Plugin {
  return definePlugin({ name: 'driver', setup: (kernel) => kernel.provide('driver', driver) })
}

function readEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

function noticeTexts(path: string): string[] {
  return readEvents(path).flatMap((event) => (event.type === 'notice' ? [event.text] : []))
}

/** A steering source that never has input, expecting the given boundaries. */
function quietSource(transport: string, boundaries: readonly BoundaryKind[], claimed: Boundary[] = []): SteeringSource {
  return {
    capability: 'boundary',
    transport,
    boundaries,
    async wait() {},
    async claim(boundary) {
      claimed.push(boundary)
      return undefined
    },
  }
}

const watcher = definePlugin({
  name: 'request-watcher',
  setup(kernel) {
    kernel.hooks.modelRequest.tap('system', (request) => ({ ...request, system: 'watched' }))
    kernel.hooks.modelRequest.tap('tools', (request) => request)
    kernel.hooks.toolPreExecute.tap('pass', (decision) => decision)
  },
})

describe('the driver gate', () => {
  it('refuses a driver of another specification version, naming the driver and both versions, before any log is written', async () => {
    const cwd = tempDir()
    const kernel = kernelOf([driverPlugin(ownModelDriver({ specificationVersion: 'v0' as never }))], cwd)
    const start = kernel.startSession()
    await expect(start).rejects.toBeInstanceOf(KernelError)
    await expect(start).rejects.toThrow('driver "double" implements driver specification "v0"; this kernel supports "v1"')
    expect(existsSync(join(cwd, '.harness'))).toBe(false)
  })

  it('a driver that brings its own model needs no model plugin; the native driver still does', async () => {
    const own = kernelOf([driverPlugin(ownModelDriver())])
    const session = await own.startSession()
    await expect(session.run('go')).resolves.toMatchObject({ status: 'completed', lastAssistantMessage: 'ok' })

    const native = kernelOf([])
    await expect(native.startSession()).rejects.toThrow(/no model provider/)
    const explicit = kernelOf([driverPlugin(nativeDriver())])
    await expect(explicit.startSession()).rejects.toThrow(/no model provider/)
  })
})

describe('capability notices', () => {
  it('one warning per plugin tapping a point the driver never fires, at session start and again at resume', async () => {
    const cwd = tempDir()
    const kernel = kernelOf([driverPlugin(ownModelDriver()), watcher], cwd)
    const session = await kernel.startSession()
    const gap = 'plugin "request-watcher" taps model/request, which the double driver never fires: that tap will not run'
    const notices = readEvents(session.transcriptPath).filter((event) => event.type === 'notice')
    expect(notices).toEqual([expect.objectContaining({ level: 'warning', text: gap, source: 'kernel' })])
    await session.end()

    const again = kernelOf([driverPlugin(ownModelDriver()), watcher], cwd)
    const resumed = await again.resumeSession(session.id)
    const events = readEvents(resumed.transcriptPath)
    const resumedAt = events.findIndex((event) => event.type === 'session/resume')
    expect(events.slice(resumedAt).flatMap((event) => (event.type === 'notice' ? [event.text] : []))).toEqual([gap])
  })

  it('taps marked rendersOnly or reportsOwnGaps are no gap: their plugins answer for them', async () => {
    const quiet = definePlugin({
      name: 'quiet-watcher',
      setup: (kernel) => {
        kernel.hooks.modelRequest.tap({ name: 'renders', rendersOnly: true } as never, (request) => request)
        kernel.hooks.modelResponse.tap({ name: 'own-gaps', reportsOwnGaps: true } as never, () => {})
      },
    })
    const kernel = kernelOf([driverPlugin(ownModelDriver()), quiet])
    expect(noticeTexts((await kernel.startSession()).transcriptPath)).toEqual([])
  })

  it('the same composition on the native driver gets no notice', async () => {
    const kernel = kernelOf([scriptedModel({ script: [{ text: 'ok' }] }), watcher])
    const session = await kernel.startSession()
    expect(noticeTexts(session.transcriptPath)).toEqual([])
  })

  it('a steering source expecting a boundary the driver lacks gets one notice naming its transport and the boundary', async () => {
    const source = (boundaries: readonly BoundaryKind[]) =>
      definePlugin({ name: 'ide-steering', setup: (kernel) => kernel.provide('steering', () => quietSource('ide', boundaries)) })

    const lacking = kernelOf([driverPlugin(ownModelDriver()), source(['final'])])
    const texts = noticeTexts((await lacking.startSession()).transcriptPath)
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain('steering source "ide"')
    expect(texts[0]).toContain('expects final boundaries, which the double driver does not have (it claims at: turn start, tool)')

    const matching = kernelOf([driverPlugin(ownModelDriver()), source(['tool'])])
    expect(noticeTexts((await matching.startSession()).transcriptPath)).toEqual([])

    const native = kernelOf([scriptedModel({ script: [{ text: 'ok' }] }), source(['final', 'sampling'])])
    expect(noticeTexts((await native.startSession()).transcriptPath)).toEqual([])
  })
})

describe('the native driver', () => {
  const echo = definePlugin({
    name: 'echo-tool',
    setup(kernel) {
      kernel.registerTool(echoTool())
    },
  })

  /** A scripted two-step tool turn; returns the event types and the boundaries claimed from a host source. */
  async function twoStepTurn(extra: Plugin[]) {
    const claimed: Boundary[] = []
    const host = definePlugin({
      name: 'host-steering',
      setup: (kernel) => kernel.provide('steering', () => quietSource('host', [], claimed)),
    })
    const model = scriptedModel({ script: [{ tool_calls: [{ name: 'echo', input: { text: 'hi' } }] }, { text: 'done' }] })
    const kernel = kernelOf([model, echo, host, ...extra])
    const session = await kernel.startSession()
    const result = await session.run('hello')
    return {
      result,
      types: readEvents(session.transcriptPath).map((event) => event.type),
      claimed: claimed.map((boundary) => `${boundary.kind}:${boundary.step}`),
    }
  }

  it('is the default and runs a tool turn as before: same events, claims at sampling and final boundaries only', async () => {
    const opens: DriverSessionContext[] = []
    const native = nativeDriver()
    const wrapped: Driver = {
      ...native,
      open(context) {
        opens.push(context)
        return native.open(context)
      },
    }

    const byDefault = await twoStepTurn([])
    const explicit = await twoStepTurn([driverPlugin(wrapped)])

    expect(byDefault.result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done' })
    expect(byDefault.types).toEqual([
      'session/start',
      'turn/start',
      'step/start',
      'message',
      'message',
      'tool/call',
      'tool/result',
      'step/start',
      'message',
      'turn/end',
    ])
    expect(byDefault.claimed).toEqual(['sampling:2', 'final:2'])
    expect(explicit.types).toEqual(byDefault.types)
    expect(explicit.claimed).toEqual(byDefault.claimed)
    expect(opens).toHaveLength(1)
    expect(opens[0]).not.toHaveProperty('nativeId')
  })

  it('an interrupt while agent/pre-step decides keeps injected context for the next turn', async () => {
    const inPreStep = deferred()
    const release = deferred()
    let first = true
    const slow = definePlugin({
      name: 'slow-policy',
      setup(kernel) {
        kernel.hooks.preStep.tapPromise('slow', async (decision) => {
          if (first) {
            first = false
            inPreStep.resolve()
            await release.promise
          }
          return decision
        })
      },
    })
    const model = scriptedModel({ script: [{ text: 'ok' }] })
    const session = await kernelOf([model, slow]).startSession()
    session.inject(contextMessage('ide', 'open file: a.ts'))
    const running = session.run('one')
    await inPreStep.promise
    session.interrupt('stop now')
    release.resolve()
    expect((await running).status).toBe('interrupted')
    await session.run('two')
    expect(model.model.requests[0]!.messages.map(textOf)).toEqual(['open file: a.ts', 'two'])
  })
})

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((res) => {
    resolve = res
  })
  return { promise, resolve }
}
