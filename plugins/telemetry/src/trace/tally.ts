import type { Attributes, ObservableResult } from '@opentelemetry/api'

/**
 * A counter's sums kept here and handed to the SDK when it collects (an observable counter): counting on a model or
 * tool step is a map update, where the SDK's `add` sorts and serializes the attributes on every call.
 */
export class Tally {
  readonly #sums = new Map<string, { attributes: Attributes; value: number }>()

  /** `key` stands for the attributes (the same key, the same attributes); they are built once per key. */
  add(key: string, value: number, attributes: () => Attributes): void {
    const sum = this.#sums.get(key)
    if (sum === undefined) this.#sums.set(key, { attributes: attributes(), value })
    else sum.value += value
  }

  observe(result: ObservableResult): void {
    for (const { attributes, value } of this.#sums.values()) result.observe(value, attributes)
  }
}
