import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { JsonFileTrustStore, type TrustStore } from '@harness-kernel/hook-protocol'
import { resolveCodexHome } from '../config/codex-home.js'
import type { CodexHandler } from '../types.js'
import { setHookStateField } from './edit-hook-state-toml.js'
import { defaultHarnessTrustPath } from './harness-trust-path.js'
import { writeFileAtomic } from './write-file-atomic.js'

export interface TrustCodexHooksOptions {
  /** The loaded handlers (`loadCodexHooks(…).handlers`): their keys and current hashes are what gets trusted. */
  handlers: readonly CodexHandler[]
  /** Keys to trust, or every non-managed handler. An unknown key throws; managed handlers need no trust and are skipped. */
  keys: readonly string[] | 'all'
  /** `harness`: the harness's own trust store (default). `codex`: `$CODEX_HOME/config.toml`, so Codex trusts them too. */
  target: 'harness' | 'codex'
  /** For `harness`; default `JsonFileTrustStore(defaultHarnessTrustPath())`. */
  trustStore?: TrustStore
  codexHome: string
}

export interface TrustCodexHooksResult {
  /** The keys now trusted at their current hash. */
  trusted: string[]
  /** The config.toml that was edited (`codex` target). */
  configPath?: string
}

/**
 * `harness hooks trust`: records each selected handler's current hash as trusted. For Codex's config.toml only
 * `trusted_hash` is written, format-preservingly and atomically; project and managed files are never touched.
 */
export function trustCodexHooks(options: TrustCodexHooksOptions): TrustCodexHooksResult {
  const selected = selectHandlers(options.handlers, options.keys)
  const trusted = selected.map((handler) => handler.key)
  if (options.target === 'harness') {
    const store = options.trustStore ?? new JsonFileTrustStore(defaultHarnessTrustPath(), 'codex')
    if (selected.length > 0)
      store.update(Object.fromEntries(selected.map((handler) => [handler.key, { trustedHash: handler.currentHash }])))
    return { trusted }
  }

  const configPath = join(resolveCodexHome(options.codexHome, process.env), 'config.toml')
  let text = ''
  try {
    text = readFileSync(configPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  let next = text
  try {
    for (const handler of selected) next = setHookStateField(next, handler.key, 'trusted_hash', handler.currentHash)
  } catch (err) {
    throw new Error(`${configPath}: ${(err as Error).message}`)
  }
  if (next !== text) writeFileAtomic(configPath, next)
  return { trusted, configPath }
}

function selectHandlers(handlers: readonly CodexHandler[], keys: readonly string[] | 'all'): CodexHandler[] {
  if (keys === 'all') return handlers.filter((handler) => handler.trustStatus !== 'managed')
  const byKey = new Map(handlers.map((handler) => [handler.key, handler]))
  const selected = new Map<string, CodexHandler>()
  for (const key of keys) {
    const handler = byKey.get(key.trim())
    if (!handler) throw new Error(`no Codex hook with key ${key}`)
    if (handler.trustStatus !== 'managed') selected.set(handler.key, handler)
  }
  return [...selected.values()]
}
