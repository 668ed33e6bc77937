/** What the user decided about one hook handler. */
export interface TrustEntry {
  /** The handler's hash when the user trusted it (Codex: `sha256:<hex>`). */
  trustedHash?: string
  /** `false` disables the handler even when trusted. */
  enabled?: boolean
}

/** Where a dialect keeps hook trust decisions, keyed by the dialect's handler key. */
export interface TrustStore {
  /** The backing file, if any. */
  readonly path: string | undefined
  /** All entries; `{}` when nothing was stored yet. */
  read(): Record<string, TrustEntry>
  /** Merges field by field: a field left `undefined` keeps its stored value; other keys are untouched. */
  update(entries: Record<string, TrustEntry>): void
}

/** The defined fields of `entry`, over `base`. */
export function mergeTrustEntry(base: TrustEntry | undefined, entry: TrustEntry): TrustEntry {
  const merged: TrustEntry = { ...base }
  if (entry.trustedHash !== undefined) merged.trustedHash = entry.trustedHash
  if (entry.enabled !== undefined) merged.enabled = entry.enabled
  return merged
}
