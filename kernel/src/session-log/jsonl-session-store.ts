import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { KernelError } from '../errors.js'
import { FileProcessLedger, type ProcessLedger } from '../process/process-ledger.js'
import type { Clock } from '../services.js'
import type { SessionEvent, SessionEventBody } from '../session-events.js'
import {
  type ForkOptions,
  type LoadedSession,
  SESSION_STORE_SPEC,
  type SessionLock,
  type SessionLog,
  type SessionStore,
  type SessionSummary,
} from '../session-store.js'
import { foldSessionEvents, NO_SESSION_FACTS } from './session-facts.js'
import { acquireSessionLock } from './session-lock.js'

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** What a session keeps beside its log (`<id>.meta.json`): what is not an event of the session itself. */
interface SessionMeta {
  name?: string
  archived?: boolean
}

/** Events a fork does not copy: the source's own lifecycle, and drivers' native session ids. */
const NOT_FORKED = new Set<SessionEvent['type']>(['session/start', 'session/resume', 'session/end', 'driver/session'])

/** The default `sessionStore`: one append-only JSONL file per session under `dir`, and its metadata beside it. */
export class JsonlSessionStore implements SessionStore {
  readonly specificationVersion = SESSION_STORE_SPEC
  readonly dir: string
  readonly #clock: Clock

  constructor(dir: string, clock: Clock = { now: () => Date.now() }) {
    this.dir = dir
    this.#clock = clock
  }

  pathFor(sessionId: string): string {
    if (!SESSION_ID.test(sessionId)) throw new KernelError(`invalid session id "${sessionId}": use letters, digits, '.', '_' and '-'`)
    return join(this.dir, `${sessionId}.jsonl`)
  }

  /** The lock file `<sessionId>.lock` beside the log: `{pid, host, since}` of the one process writing the log. */
  async lock(sessionId: string): Promise<SessionLock> {
    const path = this.pathFor(sessionId).replace(/\.jsonl$/, '.lock')
    mkdirSync(this.dir, { recursive: true })
    return acquireSessionLock(path, sessionId, () => this.#clock.now())
  }

  /** `<sessionId>.processes` beside the log (`ProcessLedger`). */
  processLedger(sessionId: string): ProcessLedger {
    return new FileProcessLedger(this.pathFor(sessionId).replace(/\.jsonl$/, '.processes'))
  }

  /** The file lock (`lock`) guards the log: a file log has no epoch to tie it to. */
  async create(sessionId: string, _lock: SessionLock): Promise<SessionLog> {
    const path = this.pathFor(sessionId)
    mkdirSync(this.dir, { recursive: true })
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new KernelError(`session ${sessionId} already exists at ${path}`)
      throw error
    }
    return new JsonlSessionLog(fd, path, 0, this.#clock)
  }

  async load(sessionId: string): Promise<LoadedSession> {
    return this.#load(sessionId)
  }

  #load(sessionId: string): LoadedSession {
    const path = this.pathFor(sessionId)
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new KernelError(`no session ${sessionId}: ${path} does not exist`)
      throw error
    }
    return parseLog(text, path)
  }

  async reopen(sessionId: string, lastSeq: number, _lock: SessionLock): Promise<SessionLog> {
    const path = this.pathFor(sessionId)
    const text = readFileSync(path, 'utf8')
    const fd = openSync(path, 'r+')
    // Cut a torn tail so the next append starts on a fresh line.
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, intactLength(text))))
    closeSync(fd)
    return new JsonlSessionLog(openSync(path, 'a'), path, lastSeq, this.#clock)
  }

  async list(): Promise<SessionSummary[]> {
    let names: string[]
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.jsonl'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const summaries = names.map((name) => this.#summarize(name.slice(0, -'.jsonl'.length)))
    return summaries.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''))
  }

  async summary(sessionId: string): Promise<SessionSummary> {
    this.#assertExists(sessionId)
    return this.#summarize(sessionId)
  }

  async setName(sessionId: string, name: string | undefined): Promise<void> {
    this.#assertExists(sessionId)
    const { name: _name, ...meta } = this.#readMeta(sessionId)
    this.#writeMeta(sessionId, name === undefined ? meta : { ...meta, name })
  }

  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    this.#assertExists(sessionId)
    const { archived: _archived, ...meta } = this.#readMeta(sessionId)
    this.#writeMeta(sessionId, archived ? { ...meta, archived } : meta)
  }

  async fork(sessionId: string, forkId: string, options: ForkOptions = {}): Promise<void> {
    const { events } = this.#load(sessionId)
    const start = events.find((event) => event.type === 'session/start')
    if (start?.type !== 'session/start') throw new KernelError(`session ${sessionId} has no session/start event to fork from`)
    const through = options.throughTurnId
    let copied = events
    if (through !== undefined) {
      const end = events.findIndex((event) => event.type === 'turn/end' && event.turnId === through)
      if (end < 0) {
        const open = events.some((event) => event.type === 'turn/start' && event.turnId === through)
        throw new KernelError(
          open ? `turn ${through} of session ${sessionId} has not ended` : `session ${sessionId} has no turn ${through}`,
        )
      }
      copied = events.slice(0, end + 1)
    }
    const path = this.pathFor(forkId)
    const at = new Date(this.#clock.now()).toISOString()
    const forkedFrom = { sessionId, ...(through === undefined ? {} : { turnId: through }) }
    const lines: SessionEvent[] = [
      { v: 1, seq: 1, at, type: 'session/start', sessionId: forkId, cwd: start.cwd, createdAt: at, forkedFrom },
    ]
    // Copied events keep their times (a turn's timing is its history) and get the fork's sequence numbers.
    for (const event of copied) if (!NOT_FORKED.has(event.type)) lines.push({ ...event, seq: lines.length + 1 })
    mkdirSync(this.dir, { recursive: true })
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new KernelError(`session ${forkId} already exists at ${path}`)
      throw error
    }
    try {
      writeSync(fd, lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }

  #assertExists(sessionId: string): void {
    const path = this.pathFor(sessionId)
    if (!existsSync(path)) throw new KernelError(`no session ${sessionId}: ${path} does not exist`)
  }

  #metaPath(sessionId: string): string {
    return join(this.dir, `${sessionId}.meta.json`)
  }

  #readMeta(sessionId: string): SessionMeta {
    try {
      return JSON.parse(readFileSync(this.#metaPath(sessionId), 'utf8')) as SessionMeta
    } catch {
      // No metadata yet (or unreadable): the log is the session; its metadata is optional.
      return {}
    }
  }

  #writeMeta(sessionId: string, meta: SessionMeta): void {
    const path = this.#metaPath(sessionId)
    if (Object.keys(meta).length === 0) {
      rmSync(path, { force: true })
      return
    }
    // Written whole, then renamed over the old file: a crash leaves the old metadata or the new, never half.
    const temporary = `${path}.tmp`
    writeFileSync(temporary, `${JSON.stringify(meta)}\n`)
    renameSync(temporary, path)
  }

  #summarize(sessionId: string): SessionSummary {
    const meta = this.#readMeta(sessionId)
    return { ...summarize(sessionId, join(this.dir, `${sessionId}.jsonl`)), name: meta.name, archived: meta.archived === true }
  }
}

class JsonlSessionLog implements SessionLog {
  readonly path: string
  #fd: number | undefined
  #seq: number
  readonly #clock: Clock
  /** The last event's time, as read and as written: a step appends several events within one millisecond. */
  #atMs = Number.NaN
  #at = ''

  constructor(fd: number, path: string, seq: number, clock: Clock) {
    this.#fd = fd
    this.path = path
    this.#seq = seq
    this.#clock = clock
  }

  append(body: SessionEventBody): SessionEvent {
    if (this.#fd === undefined) throw new KernelError(`session log ${this.path} is closed`)
    const event = { v: 1, seq: this.#seq + 1, at: this.#timestamp(), ...body } as SessionEvent
    writeSync(this.#fd, `${JSON.stringify(event)}\n`)
    this.#seq = event.seq
    return event
  }

  async sync(): Promise<void> {
    if (this.#fd !== undefined) fsyncSync(this.#fd)
  }

  /** A file log is never lost: its lock file keeps other processes out, and a write that fails throws at once. */
  onLost(_listener: (error: Error) => void): void {}

  /** `toISOString()` costs about as much as the rest of building an event; it is redone only when the clock moved. */
  #timestamp(): string {
    const ms = this.#clock.now()
    if (ms !== this.#atMs) {
      this.#at = new Date(ms).toISOString()
      this.#atMs = ms
    }
    return this.#at
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return
    fsyncSync(this.#fd)
    closeSync(this.#fd)
    this.#fd = undefined
  }
}

/** Length of the text made of whole lines; a last line without its newline is torn. */
function intactLength(text: string): number {
  return text.endsWith('\n') ? text.length : text.lastIndexOf('\n') + 1
}

function parseLog(text: string, path: string): LoadedSession {
  const intact = intactLength(text)
  const tail = text.slice(intact)
  const events: SessionEvent[] = []
  const lines = text.slice(0, intact).split('\n')
  lines.pop()
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue
    try {
      events.push(JSON.parse(line) as SessionEvent)
    } catch (error) {
      throw new KernelError(`session log ${path} is corrupt at line ${index + 1}: ${(error as Error).message}`)
    }
  }
  return { events, droppedTail: tail === '' ? undefined : tail }
}

function summarize(id: string, path: string): SessionSummary {
  const summary: SessionSummary = { id, path, ...NO_SESSION_FACTS, name: undefined, archived: false }
  let events: SessionEvent[]
  try {
    events = parseLog(readFileSync(path, 'utf8'), path).events
  } catch {
    return summary
  }
  return { ...summary, ...foldSessionEvents(summary, events) }
}
