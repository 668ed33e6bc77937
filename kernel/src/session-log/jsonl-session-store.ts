import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { KernelError } from '../errors.js'
import type { Clock } from '../services.js'
import type { SessionEvent, SessionEventBody } from '../session-events.js'
import type { LoadedSession, SessionLog, SessionStore, SessionSummary } from '../session-store.js'

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** The default `sessionStore`: one append-only JSONL file per session under `dir`. */
export class JsonlSessionStore implements SessionStore {
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

  create(sessionId: string): SessionLog {
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

  load(sessionId: string): LoadedSession {
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

  reopen(sessionId: string, lastSeq: number): SessionLog {
    const path = this.pathFor(sessionId)
    const text = readFileSync(path, 'utf8')
    const fd = openSync(path, 'r+')
    // Cut a torn tail so the next append starts on a fresh line.
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, intactLength(text))))
    closeSync(fd)
    return new JsonlSessionLog(openSync(path, 'a'), path, lastSeq, this.#clock)
  }

  list(): SessionSummary[] {
    let names: string[]
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.jsonl'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const summaries = names.map((name) => summarize(name.slice(0, -'.jsonl'.length), join(this.dir, name)))
    return summaries.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''))
  }
}

class JsonlSessionLog implements SessionLog {
  readonly path: string
  #fd: number | undefined
  #seq: number
  readonly #clock: Clock

  constructor(fd: number, path: string, seq: number, clock: Clock) {
    this.#fd = fd
    this.path = path
    this.#seq = seq
    this.#clock = clock
  }

  append(body: SessionEventBody): SessionEvent {
    if (this.#fd === undefined) throw new KernelError(`session log ${this.path} is closed`)
    const event = { v: 1, seq: this.#seq + 1, at: new Date(this.#clock.now()).toISOString(), ...body } as SessionEvent
    writeSync(this.#fd, `${JSON.stringify(event)}\n`)
    this.#seq = event.seq
    return event
  }

  sync(): void {
    if (this.#fd !== undefined) fsyncSync(this.#fd)
  }

  close(): void {
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
  const summary: SessionSummary = {
    id,
    path,
    cwd: undefined,
    createdAt: undefined,
    updatedAt: undefined,
    turns: 0,
    ended: false,
    firstPrompt: undefined,
  }
  let events: SessionEvent[]
  try {
    events = parseLog(readFileSync(path, 'utf8'), path).events
  } catch {
    return summary
  }
  for (const event of events) {
    summary.updatedAt = event.at
    if (event.type === 'session/start') {
      summary.cwd = event.cwd
      summary.createdAt = event.createdAt
    } else if (event.type === 'turn/start') summary.turns++
    else if (event.type === 'session/end') summary.ended = true
    else if (event.type === 'message' && summary.firstPrompt === undefined && event.message.role === 'user') {
      const block = event.message.content.find((part) => part.type === 'text')
      if (block?.type === 'text') summary.firstPrompt = block.text
    }
  }
  return summary
}
