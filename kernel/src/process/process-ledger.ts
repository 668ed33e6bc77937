import { appendFileSync, readFileSync, rmSync } from 'node:fs'
import { hostname } from 'node:os'

/** A process group a session's kernel started and had not seen end. */
export interface ProcessGroupRecord {
  /** The group's id: the pid of the child the kernel spawned, which leads it. */
  pgid: number
  /** What ran (the command line, cut to 200 characters). */
  command: string
  /** When it started (ISO time). */
  startedAt: string
  host: string
  /** Linux: the leader's start in clock ticks since boot, and the boot's id; what tells this group from a later one. */
  startTicks?: number
  bootId?: string
}

type LedgerLine = { start: ProcessGroupRecord } | { end: number }

const COMMAND_CHARS = 200

/**
 * A session's record of the process groups its kernel started and has not seen end (`SessionStore.processLedger`):
 * read on resume to kill what a crashed kernel left running. `started` and `ended` return at once; what a store keeps
 * must be on its storage by the time a killed kernel could leave the group behind (a file ledger writes synchronously).
 */
export interface ProcessLedger {
  /** Where the record is (a file path, or a store's URL for it). */
  readonly path: string
  started(record: { pgid: number; command: string; startTicks?: number | undefined }): void
  ended(pgid: number): void
  /** The groups started and never seen to end (a previous kernel's, when read before this one starts any). */
  unfinished(): Promise<ProcessGroupRecord[]>
  clear(): Promise<void>
}

/** The record of a group starting now on this host: what `reapProcessGroups` needs to tell it from a later one. */
export function processGroupRecord(record: { pgid: number; command: string; startTicks?: number | undefined }): ProcessGroupRecord {
  const bootId = currentBootId()
  return {
    pgid: record.pgid,
    command: record.command.slice(0, COMMAND_CHARS),
    startedAt: new Date().toISOString(),
    host: hostname(),
    ...(record.startTicks === undefined ? {} : { startTicks: record.startTicks }),
    ...(bootId === undefined ? {} : { bootId }),
  }
}

/**
 * `<session>.processes` beside a session's log: a line when the kernel starts a process group and one when the group is
 * gone. Appended synchronously, so what a SIGKILLed kernel left running is on disk; removed once nothing is running.
 * Kept out of the log itself: it is bookkeeping for the next opener, not part of the conversation.
 */
export class FileProcessLedger implements ProcessLedger {
  readonly path: string
  readonly #running = new Set<number>()

  constructor(path: string) {
    this.path = path
  }

  started(record: { pgid: number; command: string; startTicks?: number | undefined }): void {
    this.#running.add(record.pgid)
    this.#append({ start: processGroupRecord(record) })
  }

  ended(pgid: number): void {
    if (!this.#running.delete(pgid)) return
    if (this.#running.size === 0) this.#remove()
    else this.#append({ end: pgid })
  }

  async unfinished(): Promise<ProcessGroupRecord[]> {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const open = new Map<number, ProcessGroupRecord>()
    for (const raw of text.split('\n')) {
      const line = parseLine(raw)
      if (line === undefined) continue
      if ('start' in line) open.set(line.start.pgid, line.start)
      else open.delete(line.end)
    }
    return [...open.values()]
  }

  async clear(): Promise<void> {
    this.#remove()
  }

  #remove(): void {
    rmSync(this.path, { force: true })
  }

  #append(line: LedgerLine): void {
    appendFileSync(this.path, `${JSON.stringify(line)}\n`)
  }
}

/** A torn or foreign line is skipped: the ledger only ever leads to a check, never to a kill by itself. */
function parseLine(raw: string): LedgerLine | undefined {
  if (raw.trim() === '') return undefined
  try {
    const line = JSON.parse(raw) as Partial<{ start: Partial<ProcessGroupRecord>; end: unknown }>
    if (typeof line.end === 'number') return { end: line.end }
    const start = line.start
    if (start && Number.isInteger(start.pgid) && (start.pgid as number) > 1 && typeof start.host === 'string')
      return { start: { command: '', startedAt: '', ...start } as ProcessGroupRecord }
  } catch {
    // skipped
  }
  return undefined
}

let bootId: string | null | undefined

/** Linux's id of this boot; undefined elsewhere. */
export function currentBootId(): string | undefined {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    } catch {
      bootId = null
    }
  }
  return bootId ?? undefined
}
