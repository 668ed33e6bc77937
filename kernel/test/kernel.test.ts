import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createKernel, defineTool, InProcessSteeringSource, JsonlSessionStore, KernelError } from '../src/index.js'
import { echoModel, modelPlugin, plugin, tempDir } from './helpers.js'

describe('createKernel', () => {
  it('rejects duplicate plugin names with a clear error', () => {
    expect(() => createKernel([plugin('a', () => {}), plugin('b', () => {}), plugin('a', () => {})])).toThrow(
      'createKernel: duplicate plugin name "a" (items 0 and 2); plugin names must be unique',
    )
  })

  it('rejects things that are not plugins', () => {
    expect(() => createKernel([{ name: 'x' } as never])).toThrow(/item 0 is not a plugin/)
  })

  it('replaces removes the named plugin: only the replacement is set up', async () => {
    const setUp: string[] = []
    const kernel = createKernel(
      [plugin('codex-hooks', () => setUp.push('codex-hooks')), plugin('my-codex', () => setUp.push('my-codex'), ['codex-hooks'])],
      { cwd: tempDir() },
    )
    await kernel.ready
    expect(setUp).toEqual(['my-codex'])
    expect(kernel.plugins).toEqual(['my-codex'])
  })

  it('replaces naming a plugin that is not composed is an error naming the plugins there are', () => {
    expect(() => createKernel([plugin('tools', () => {}), plugin('my-codex', () => {}, ['codex-hook'])], { cwd: tempDir() })).toThrow(
      'createKernel: plugin "my-codex" replaces "codex-hook", which is not in the composition (its plugins: tools, my-codex)',
    )
  })

  it('disposes plugins in reverse order, after ending open sessions', async () => {
    const order: string[] = []
    const make = (name: string) =>
      plugin(name, (kernel) => {
        kernel.hooks.sessionEnd.tapPromise(name, async ({ reason }) => {
          order.push(`${name}:end:${reason}`)
        })
        return () => {
          order.push(`${name}:dispose`)
        }
      })
    const kernel = createKernel([modelPlugin, make('first'), make('second')], { cwd: tempDir() })
    await kernel.startSession()
    await kernel.dispose()
    expect(order).toEqual(['first:end:dispose', 'second:end:dispose', 'second:dispose', 'first:dispose'])
    await expect(kernel.startSession()).rejects.toThrow('the kernel has been disposed')
  })

  it('supports async setup; a failing setup names the plugin', async () => {
    const order: string[] = []
    const kernel = createKernel(
      [
        plugin('slow', async (k) => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          k.hooks.preStep.tap('slow', (d) => d)
          order.push('slow')
        }),
        plugin('fast', () => order.push('fast')),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    expect(order).toEqual(['slow', 'fast'])
    expect(kernel.hooks.preStep.taps.map((tap) => tap.name)).toEqual(['slow'])
    const broken = createKernel([
      plugin('broken', () => {
        throw new Error('missing config')
      }),
    ])
    await expect(broken.ready).rejects.toThrow('plugin "broken" failed to set up: missing config')
  })

  it('registers the default services and lets the last provide win', async () => {
    const kernel = createKernel(
      [plugin('one', (k) => k.provide('clock', { now: () => 1 })), plugin('two', (k) => k.provide('clock', { now: () => 2 }))],
      { cwd: tempDir() },
    )
    await kernel.ready
    expect(kernel.resolve('clock').now()).toBe(2)
    expect(kernel.resolve('sessionStore')).toBeInstanceOf(JsonlSessionStore)
    for (const key of ['tools', 'approvals', 'processRunner', 'logger'] as const) expect(kernel.resolve(key)).toBeDefined()
  })

  it('factories are per session scope by default, once per kernel with lifetime kernel', async () => {
    let scoped = 0
    let shared = 0
    const kernel = createKernel(
      [
        modelPlugin,
        plugin('services', (k) => {
          k.provide('counter', () => ++scoped)
          k.provide('shared', () => ++shared, { lifetime: 'kernel' })
          k.provide('steering', ({ session }: { session: { id: string } }) => {
            const source = new InProcessSteeringSource()
            ;(source as unknown as { owner: string }).owner = session.id
            return source
          })
        }),
      ],
      { cwd: tempDir() },
    )
    const a = await kernel.startSession()
    const b = await kernel.startSession()
    expect(a.id).not.toBe(b.id)
    expect((a as unknown as { queue: { owner: string } }).queue.owner).toBe(a.id)
    expect((b as unknown as { queue: { owner: string } }).queue.owner).toBe(b.id)
    await kernel.dispose()
    expect(scoped).toBe(0)
    expect(shared).toBe(0)
  })

  it('starting a session without a model is a clear error', async () => {
    const cwd = tempDir()
    const kernel = createKernel([], { cwd })
    await expect(kernel.startSession()).rejects.toThrow(/no model provider: add a model plugin/)
    expect(existsSync(join(cwd, '.harness'))).toBe(false)
  })

  it('registerTool rejects a second tool of the same name', async () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      inputSchema: z.object({}),
      execute: async () => ({ output: '', isError: false }),
    })
    const kernel = createKernel([plugin('a', (k) => k.registerTool(tool)), plugin('b', (k) => k.registerTool(tool))], { cwd: tempDir() })
    await expect(kernel.ready).rejects.toThrow('plugin "b" failed to set up: tool "t" is registered twice')
  })

  it('the session log lives under sessionsDir and is the transcript path', async () => {
    const cwd = tempDir()
    const kernel = createKernel([plugin('m', (k) => k.provide('model', echoModel))], { cwd, sessionsDir: 'logs' })
    const session = await kernel.startSession({ id: 'my-session' })
    expect(session.transcriptPath).toBe(`${cwd}/logs/my-session.jsonl`)
    await expect(kernel.startSession({ id: 'my-session' })).rejects.toThrow(KernelError)
    await expect(kernel.startSession({ id: '../escape' })).rejects.toThrow(/invalid session id/)
    await kernel.dispose()
  })
})
