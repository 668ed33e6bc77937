/** A seeded pseudo-random source (mulberry32): the same seed gives the same sequence, so a failure can be replayed. */
export interface Prng {
  readonly seed: number
  /** In [0, 1). */
  next(): number
  /** An integer in [0, max). */
  int(max: number): number
  pick<T>(items: readonly T[]): T
  chance(probability: number): boolean
}

export function prng(seed: number): Prng {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  return {
    seed,
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (probability) => next() < probability,
  }
}

/** `RELIABILITY_SEED` when set (to replay a failure), else a fresh seed. */
export function seedFromEnv(): number {
  const fixed = process.env.RELIABILITY_SEED
  return fixed === undefined || fixed === '' ? Math.floor(Math.random() * 2 ** 31) : Number(fixed)
}
