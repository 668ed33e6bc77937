import { mergeTrustEntry, type TrustEntry, type TrustStore } from './trust-store.js'

/** An in-memory `TrustStore` (tests, ephemeral sessions). */
export class MemoryTrustStore implements TrustStore {
  readonly path = undefined
  #entries: Record<string, TrustEntry>

  constructor(initial: Record<string, TrustEntry> = {}) {
    this.#entries = copy(initial)
  }

  read(): Record<string, TrustEntry> {
    return copy(this.#entries)
  }

  update(entries: Record<string, TrustEntry>): void {
    for (const [key, entry] of Object.entries(entries)) this.#entries[key] = mergeTrustEntry(this.#entries[key], entry)
  }
}

function copy(entries: Record<string, TrustEntry>): Record<string, TrustEntry> {
  return Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, { ...entry }]))
}
