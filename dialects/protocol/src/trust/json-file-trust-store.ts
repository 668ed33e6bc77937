import { randomBytes } from 'node:crypto'
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { mergeTrustEntry, type TrustEntry, type TrustStore } from './trust-store.js'

const VERSION = 1

type Document = Record<string, unknown> & { hooks: Record<string, unknown> }

/**
 * A `TrustStore` in a JSON file: `{"version":1,"dialect":"<name>","hooks":{"<key>":{"trustedHash":"…","enabled":false}}}`.
 * Written atomically (temporary file in the same directory, then rename) with mode 0600. Fields and keys it does not know
 * are kept as they are.
 */
export class JsonFileTrustStore implements TrustStore {
  readonly path: string
  readonly dialect: string

  constructor(path: string, dialect: string) {
    this.path = path
    this.dialect = dialect
  }

  read(): Record<string, TrustEntry> {
    const document = this.readDocument()
    const entries: Record<string, TrustEntry> = {}
    for (const [key, value] of Object.entries(document?.hooks ?? {})) {
      if (!isObject(value)) continue
      const entry: TrustEntry = {}
      if (typeof value.trustedHash === 'string') entry.trustedHash = value.trustedHash
      if (typeof value.enabled === 'boolean') entry.enabled = value.enabled
      entries[key] = entry
    }
    return entries
  }

  update(entries: Record<string, TrustEntry>): void {
    const document: Document = this.readDocument() ?? { version: VERSION, dialect: this.dialect, hooks: {} }
    for (const [key, entry] of Object.entries(entries)) {
      const stored = document.hooks[key]
      const base = isObject(stored) ? stored : {}
      document.hooks[key] = { ...base, ...mergeTrustEntry(undefined, entry) }
    }
    this.write(`${JSON.stringify(document, null, 2)}\n`)
  }

  private readDocument(): Document | undefined {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new Error(`malformed hook trust store ${this.path}: ${(error as Error).message}`)
    }
    const problem = (what: string) => new Error(`malformed hook trust store ${this.path}: ${what}`)
    if (!isObject(parsed)) throw problem('expected a JSON object')
    if (parsed.version !== undefined && parsed.version !== VERSION) throw problem(`unsupported version ${JSON.stringify(parsed.version)}`)
    if (parsed.dialect !== undefined && parsed.dialect !== this.dialect) {
      throw problem(`it belongs to dialect ${JSON.stringify(parsed.dialect)}, not ${JSON.stringify(this.dialect)}`)
    }
    if (parsed.hooks === undefined) return { ...parsed, hooks: {} }
    if (!isObject(parsed.hooks)) throw problem('"hooks" must be an object')
    return parsed as Document
  }

  private write(text: string): void {
    const directory = dirname(this.path)
    mkdirSync(directory, { recursive: true, mode: 0o700 })
    const temporary = join(directory, `.${basename(this.path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
    try {
      const fd = openSync(temporary, 'wx', 0o600)
      try {
        fchmodSync(fd, 0o600)
        writeSync(fd, text)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temporary, this.path)
    } catch (error) {
      rmSync(temporary, { force: true })
      throw error
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
