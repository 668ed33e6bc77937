import { readFileSync, statSync } from 'node:fs'
import { hookEventsEmpty, type RawHookEvents } from './hook-config.js'
import { parseHooksJson } from './hooks-json-file.js'
import { SerdeError } from './serde-error.js'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Codex's `load_hooks_json`: nothing when the file is absent (or not a regular file) or declares no event;
 * a warning and nothing when it cannot be read or parsed.
 */
export function readHooksJson(path: string, warnings: string[]): RawHookEvents | undefined {
  try {
    if (!statSync(path).isFile()) return undefined
  } catch {
    return undefined
  }
  let bytes: Uint8Array
  try {
    bytes = readFileSync(path)
    utf8.decode(bytes)
  } catch (err) {
    const reason = err instanceof TypeError ? 'stream did not contain valid UTF-8' : ioReason(err)
    warnings.push(`failed to read hooks config ${path}: ${reason}`)
    return undefined
  }
  try {
    const events = parseHooksJson(bytes)
    return hookEventsEmpty(events) ? undefined : events
  } catch (err) {
    if (!(err instanceof SerdeError)) throw err
    warnings.push(`failed to parse hooks config ${path}: ${err.message}`)
    return undefined
  }
}

const RUST_IO_REASONS: Record<string, string> = {
  EACCES: 'Permission denied (os error 13)',
  EPERM: 'Operation not permitted (os error 1)',
  EISDIR: 'Is a directory (os error 21)',
  ELOOP: 'Too many levels of symbolic links (os error 40)',
}

/** Rust's `io::Error` display for the failures a readable-looking file can still give. */
export function ioReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  return (code && RUST_IO_REASONS[code]) ?? (err instanceof Error ? err.message : String(err))
}
