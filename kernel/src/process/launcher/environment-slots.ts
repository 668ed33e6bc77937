/** A run's environment as both sides of the launcher's pipe hold it. */
export type Environment = Record<string, string | undefined>

/** How many environments the launcher keeps: the hooks' and the shell tool's of a few sessions at once. */
export const ENVIRONMENT_SLOTS = 8

/**
 * How a run names its environment to the launcher: the slot the launcher keeps it in, and the environment itself only
 * when that slot does not hold it already (`set`).
 */
export interface EnvironmentRef {
  slot: number
  set?: Environment
}

/**
 * The kernel's side of the launcher's environment slots. A run's environment is most of its request (a few KB, often
 * the same from run to run), and reading it is most of what the launcher does before it starts the command; so each is
 * sent once and named by slot after. The launcher takes the slots in the order the requests come, so this side always
 * knows what each holds; the least recently used is given up for a new environment.
 */
export class EnvironmentSlots {
  readonly #slots: (Environment | undefined)[] = []
  /** Slot numbers, the most recently used last. */
  readonly #recency: number[] = []

  /** The reference for a run with `env`; a slot filled here counts as filled once its request was sent. */
  refer(env: Environment): EnvironmentRef {
    let slot = this.#slots.findIndex((held) => held !== undefined && sameEnvironment(held, env))
    const found = slot >= 0
    if (!found) {
      slot = this.#slots.indexOf(undefined)
      if (slot < 0) slot = this.#slots.length < ENVIRONMENT_SLOTS ? this.#slots.length : this.#recency[0]!
      this.#slots[slot] = env
    }
    this.#touch(slot)
    return found ? { slot } : { slot, set: env }
  }

  /** A request that filled `slot` never reached the launcher: nothing may refer to the slot until it is filled again. */
  forget(slot: number): void {
    this.#slots[slot] = undefined
  }

  #touch(slot: number): void {
    const at = this.#recency.indexOf(slot)
    if (at >= 0) this.#recency.splice(at, 1)
    this.#recency.push(slot)
  }
}

/** The same variables with the same values; a variable set to undefined is one the child does not get. */
export function sameEnvironment(a: Environment, b: Environment): boolean {
  let count = 0
  for (const name in a) {
    const value = a[name]
    if (value === undefined) continue
    if (b[name] !== value) return false
    count++
  }
  for (const name in b) if (b[name] !== undefined) count--
  return count === 0
}
