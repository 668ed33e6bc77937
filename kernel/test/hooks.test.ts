import { describe, expect, it } from 'vitest'
import {
  createKernel,
  HOOK_NAMES,
  HookTapError,
  KernelError,
  type PreToolDecision,
  STAGE_DEFAULT,
  STAGE_GUARD,
  STAGE_OBSERVE,
  type ToolCallPayload,
} from '../src/index.js'
import { plugin, tempDir } from './helpers.js'

const payload = {} as ToolCallPayload

describe('kernel.hooks', () => {
  it('is frozen, has every canonical point, and kernel.hook(name) returns the same hook', () => {
    const kernel = createKernel([], { cwd: tempDir() })
    expect(Object.isFrozen(kernel.hooks)).toBe(true)
    expect(Object.keys(HOOK_NAMES)).toEqual([
      'agent/session-start',
      'agent/session-end',
      'agent/pre-step',
      'model/request',
      'model/response',
      'tools/pre-execute',
      'tools/permission-request',
      'tools/post-execute',
      'agent/turn-stopping',
      'agent/pre-compact',
      'agent/post-compact',
      'agent/subagent-start',
      'agent/subagent-stop',
      'agent/interrupt',
      'agent/notice',
      'session/event',
      'model/delta',
      'tools/output',
      'agent/budget-reached',
    ])
    for (const [name, key] of Object.entries(HOOK_NAMES)) {
      expect(kernel.hook(name as keyof typeof HOOK_NAMES)).toBe(kernel.hooks[key])
    }
    expect(() => kernel.hook('tools/nope' as never)).toThrow(/unknown hook "tools\/nope"/)
    expect(() => {
      ;(kernel.hooks as unknown as Record<string, unknown>).extra = 1
    }).toThrow()
  })

  it('stage constants order guards before defaults before observers', () => {
    expect(STAGE_GUARD).toBeLessThan(STAGE_DEFAULT)
    expect(STAGE_DEFAULT).toBeLessThan(STAGE_OBSERVE)
  })

  it('a veto is final: later taps are not called, whatever their kind or registration order', async () => {
    const calls: string[] = []
    const kernel = createKernel(
      [
        plugin('late', (k) => {
          k.hooks.toolPreExecute.tap('loosen-sync', () => {
            calls.push('sync')
            return { kind: 'allow' }
          })
          k.hooks.toolPreExecute.tapAsync('loosen-async', (_decision, _payload, done) => {
            calls.push('async')
            done(null, { kind: 'allow' })
          })
          k.hooks.toolPreExecute.tapPromise('loosen-promise', async () => {
            calls.push('promise')
            return { kind: 'allow' }
          })
        }),
        plugin('guard', (k) => {
          k.hooks.toolPreExecute.tap({ name: 'deny', stage: STAGE_GUARD }, () => {
            calls.push('guard')
            return { kind: 'deny', reason: 'no' }
          })
        }),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    const result = await kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)
    expect(result).toEqual({ kind: 'deny', reason: 'no' })
    expect(calls).toEqual(['guard'])
  })

  it('callAsync and tapable interceptors work on the decision waterfalls', async () => {
    const seen: string[] = []
    const kernel = createKernel(
      [
        plugin('p', (k) => {
          k.hooks.toolPreExecute.intercept({
            call: () => seen.push('call'),
            tap: (tap) => seen.push(`tap:${tap.name}`),
            result: () => seen.push('result'),
          })
          k.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask' }))
        }),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    const result = await new Promise((resolve, reject) =>
      kernel.hooks.toolPreExecute.callAsync({ kind: 'allow' }, payload, (error, value) => (error ? reject(error) : resolve(value))),
    )
    expect(result).toEqual({ kind: 'ask' })
    expect(seen).toEqual(['call', 'tap:ask', 'result'])
  })

  it('a decision carrying halt is final too', async () => {
    let later = false
    const kernel = createKernel(
      [
        plugin('p', (k) => {
          k.hooks.toolPostExecute.tap('halt', () => ({ kind: 'accept', halt: { reason: 'stop' } }))
          k.hooks.toolPostExecute.tap('later', () => {
            later = true
            return { kind: 'accept' }
          })
        }),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    const result = await kernel.hooks.toolPostExecute.promise({ kind: 'accept' }, {} as never)
    expect(result).toEqual({ kind: 'accept', halt: { reason: 'stop' } })
    expect(later).toBe(false)
  })

  it('undefined keeps the value; returned decisions are validated and keep their identity', async () => {
    const decision: PreToolDecision = { kind: 'allow', input: { a: 1 } }
    const kernel = createKernel(
      [
        plugin('p', (k) => {
          k.hooks.toolPreExecute.tap('keep', () => undefined as never)
          k.hooks.toolPreExecute.tap('replace', () => decision)
        }),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    expect(await kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)).toBe(decision)
  })

  it('an invalid decision is an error naming the plugin and the tap', async () => {
    const kernel = createKernel(
      [plugin('policy', (k) => k.hooks.toolPreExecute.tapPromise('bad', async () => ({ kind: 'deny' }) as never))],
      { cwd: tempDir() },
    )
    await kernel.ready
    const error = await kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HookTapError)
    expect(error).toMatchObject({ plugin: 'policy', tap: 'bad', hook: 'tools/pre-execute' })
    expect((error as Error).message).toBe(
      'plugin "policy" (tap "bad") failed in tools/pre-execute: returned an invalid value (reason: Invalid input: expected string, received undefined)',
    )
  })

  it('thrown errors are attributed for sync, callback and promise taps', async () => {
    for (const kind of ['sync', 'async', 'promise'] as const) {
      const kernel = createKernel(
        [
          plugin('thrower', (k) => {
            if (kind === 'sync')
              k.hooks.preStep.tap('t', () => {
                throw new Error('sync boom')
              })
            if (kind === 'async') k.hooks.preStep.tapAsync('t', (_d, _p, done) => done(new Error('async boom')))
            if (kind === 'promise') k.hooks.preStep.tapPromise('t', () => Promise.reject(new Error('promise boom')))
          }),
        ],
        { cwd: tempDir() },
      )
      await kernel.ready
      const error = await kernel.hooks.preStep.promise({ kind: 'enter', messages: [] }, {} as never).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(HookTapError)
      expect((error as Error).message).toBe(`plugin "thrower" (tap "t") failed in agent/pre-step: ${kind} boom`)
    }
  })

  it('parallel hooks attribute errors too', async () => {
    const kernel = createKernel([plugin('starter', (k) => k.hooks.sessionStart.tapPromise('s', () => Promise.reject(new Error('nope'))))], {
      cwd: tempDir(),
    })
    await kernel.ready
    await expect(kernel.hooks.sessionStart.promise({} as never)).rejects.toThrow(
      'plugin "starter" (tap "s") failed in agent/session-start: nope',
    )
  })

  it('observer taps (session/event, agent/notice) never break the caller; their errors are reported', async () => {
    const seen: string[] = []
    const kernel = createKernel(
      [
        plugin('observers', (k) => {
          k.hooks.notice.tap('broken', () => {
            throw new Error('observer bug')
          })
          k.hooks.notice.tap('fine', ({ text }) => seen.push(text))
        }),
      ],
      { cwd: tempDir() },
    )
    await kernel.ready
    const stderr: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((chunk: string) => stderr.push(String(chunk))) as unknown as typeof process.stderr.write
    try {
      kernel.hooks.notice.call({ session: {} as never, level: 'info', text: 'hello', source: 'test' })
    } finally {
      process.stderr.write = write
    }
    expect(seen).toEqual(['hello'])
    expect(stderr.join('')).toContain('plugin "observers" (tap "broken") failed in agent/notice: observer bug')
  })

  it('taps are registered during setup only', async () => {
    const kernel = createKernel([], { cwd: tempDir() })
    await kernel.ready
    expect(() => kernel.hooks.preStep.tap('late', (d) => d)).toThrow(KernelError)
    expect(() => kernel.hooks.preStep.tap('late', (d) => d)).toThrow(/registered after setup/)
  })
})
