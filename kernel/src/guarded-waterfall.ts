import type { z } from 'zod'
import { isVeto } from './decisions.js'
import type { HookTapError } from './errors.js'

/** A tap of a decision waterfall, as the `register` interceptor leaves it. */
export interface GuardedTap {
  type: 'sync' | 'async' | 'promise'
  name: string
  fn: (...args: unknown[]) => unknown
  attribute(error: unknown): HookTapError
}

interface CompileOptions {
  taps: GuardedTap[]
  interceptors: { call?(...args: unknown[]): void; tap?(tap: unknown): void; result?(value: unknown): void; error?(error: unknown): void }[]
  type: 'sync' | 'async' | 'promise'
}

/**
 * Replaces tapable's generated code for the decision waterfalls with one loop that enforces the
 * kernel's rules: a veto is final (later taps are not called), a returned decision is validated
 * (the tap's own object is passed on), and errors carry the tap's plugin. One loop instead of a
 * wrapper per tap keeps dispatch to one microtask per async tap.
 */
export function compileGuardedWaterfall(hookName: string, schema: z.ZodType, options: CompileOptions): (...args: unknown[]) => unknown {
  const { taps, interceptors } = options
  const validate = decisionValidator(schema)
  const observed = interceptors.some((interceptor) => interceptor.call || interceptor.tap || interceptor.result || interceptor.error)
  // Untapped (most points, most steps): the decision stands as given, without an async frame per call.
  if (taps.length === 0 && !observed && options.type === 'promise') return (initial: unknown) => Promise.resolve(initial)
  const loop = async (initial: unknown, payload: unknown): Promise<unknown> => {
    let value = initial
    for (let index = 0; index < taps.length; index++) {
      if (isVeto(value)) break
      const tap = taps[index]!
      if (observed) for (const interceptor of interceptors) interceptor.tap?.(tap)
      let out: unknown
      try {
        if (tap.type === 'promise') out = await tap.fn(value, payload)
        else if (tap.type === 'sync') out = tap.fn(value, payload)
        else
          out = await new Promise((resolve, reject) =>
            tap.fn(value, payload, (error: unknown, result: unknown) => (error ? reject(error) : resolve(result))),
          )
      } catch (error) {
        throw tap.attribute(error)
      }
      if (out === undefined || out === value) continue
      const problem = validate(out)
      if (problem) throw tap.attribute(new Error(problem))
      value = out
    }
    return value
  }
  const run = !observed
    ? loop
    : async (initial: unknown, payload: unknown): Promise<unknown> => {
        for (const interceptor of interceptors) interceptor.call?.(initial, payload)
        try {
          const value = await loop(initial, payload)
          for (const interceptor of interceptors) interceptor.result?.(value)
          return value
        } catch (error) {
          for (const interceptor of interceptors) interceptor.error?.(error)
          throw error
        }
      }
  if (options.type === 'promise') return run as (...args: unknown[]) => unknown
  if (options.type === 'async') {
    return (value, payload, callback) => {
      const done = callback as (error: unknown, result?: unknown) => void
      run(value, payload).then(
        (result) => done(null, result),
        (error) => done(error),
      )
    }
  }
  return () => {
    throw new Error(`${hookName} is asynchronous: use promise() or callAsync()`)
  }
}

/** Validates with zod, except a bare `{kind}` whose kind needs nothing more (checked once per kind). */
function decisionValidator(schema: z.ZodType): (out: unknown) => string | undefined {
  const bareKinds = new Map<unknown, string | undefined>()
  const check = (out: unknown) => {
    const parsed = schema.safeParse(out)
    if (parsed.success) return undefined
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(value)'}: ${issue.message}`)
    return `returned an invalid value (${issues.join('; ')})`
  }
  return (out) => {
    if (out === null || typeof out !== 'object') return check(out)
    const keys = Object.keys(out)
    if (keys.length !== 1 || keys[0] !== 'kind') return check(out)
    const kind = (out as { kind: unknown }).kind
    if (!bareKinds.has(kind)) bareKinds.set(kind, check(out))
    return bareKinds.get(kind)
  }
}
