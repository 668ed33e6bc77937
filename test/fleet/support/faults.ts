import { readFileSync } from 'node:fs'
import type { PostgresServer } from '@harness-kernel/testing/postgres'
import type { Fleet, FleetNode, NodeLine } from './fleet-nodes.js'
import { type ThreadDb, until } from './thread-db.js'

export interface FaultContext {
  fleet: Fleet
  db: ThreadDb
  postgres: PostgresServer
  threadId: string
  /** Marks a wait that only the client's input can end (a take-over needs input waiting; a command needs a turn). */
  needingInput<T>(wait: Promise<T>): Promise<T>
}

export type FaultReport =
  | { kind: 'kill -9'; victim: string; newOwner: string; failoverMs: number }
  | {
      kind: 'SIGSTOP'
      victim: string
      newOwner: string
      failoverMs: number
      /** The stalled owner's epoch, and the one that took over. */
      epochs: { zombie: number; next: number }
      /** What the continued zombie said when the store refused it. */
      refusal: string
      toolPid: number
    }
  | { kind: 'postgres restart'; restartMs: number }

type ToolLine = Extract<NodeLine, { kind: 'tool' }>

/** Commands this module stopped, for the test's clean-up to kill should a run end before they are gone. */
export const stoppedTools = new Set<number>()

/** A live process, not a zombie: `kill(pid, 0)` succeeds and `/proc` does not say `Z`. */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** `kill(pid, 0)` says there is no such process (a zombie still counts as there). */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

const isSleep = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\u00001\u0000'
  } catch {
    return false
  }
}

/** The node holding the thread's live lease (waits while the thread is between owners). */
async function owner(context: FaultContext): Promise<{ node: FleetNode; epoch: number }> {
  const found = until(
    async () => {
      const holder = await context.db.holder(context.threadId)
      const node = holder?.live ? context.fleet.byPid(holder.pid) : undefined
      return node?.alive ? { node, epoch: holder!.epoch } : undefined
    },
    'a live owner of the thread',
    60_000,
  )
  return context.needingInput(found)
}

/**
 * Waits for a node other than `previous` to hold the thread's lease at a newer epoch than `epoch`; a take-over that does
 * not come says what the server's sessions were doing.
 */
async function takenOver(context: FaultContext, previous: FleetNode, epoch: number) {
  const next = until(
    async () => {
      const holder = await context.db.holder(context.threadId)
      return holder?.live && holder.epoch > epoch && holder.pid !== previous.pid ? holder : undefined
    },
    `another node to take the thread over from ${previous.name}`,
    30_000,
  ).catch(async (error: unknown) => {
    const activity = await context.db.activity().catch(() => '(could not read pg_stat_activity)')
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the server's sessions:\n${activity}`)
  })
  return context.needingInput(next)
}

const nameOf = (context: FaultContext, pid: number) => context.fleet.byPid(pid)?.name ?? `pid ${pid}`

/** SIGKILLs the thread's owner, starts a node of its role in its place, and times the take-over. */
export async function killOwner(context: FaultContext): Promise<FaultReport> {
  const { node, epoch } = await owner(context)
  const killedAt = performance.now()
  node.signal('SIGKILL')
  const replacement = node.exited.then(() => context.fleet.start(node.role))
  const next = await takenOver(context, node, epoch)
  const failoverMs = Math.round(performance.now() - killedAt)
  await replacement
  return { kind: 'kill -9', victim: node.name, newOwner: nameOf(context, next.pid), failoverMs }
}

/**
 * SIGSTOPs the thread's owner while it runs a shell command, past its lease, until another node holds the thread; then
 * SIGCONTs it. The command is stopped with it and left stopped: only a kill (the zombie's, once the store refuses it, or
 * the new owner's reaping) ends it.
 */
export async function stallOwner(context: FaultContext): Promise<FaultReport> {
  const { node, epoch } = await owner(context)
  const since = node.lines.length
  const isLiveTool = (line: NodeLine): line is ToolLine =>
    line.kind === 'tool' && line.threadId === context.threadId && running(line.pid) && isSleep(line.pid)
  const tool = await context.needingInput(node.waitFor(isLiveTool, 'a shell command of the owner', 60_000, since))
  node.signal('SIGSTOP')
  process.kill(tool.pid, 'SIGSTOP')
  stoppedTools.add(tool.pid)
  const stoppedAt = performance.now()
  const next = await takenOver(context, node, epoch)
  const failoverMs = Math.round(performance.now() - stoppedAt)
  const woke = node.lines.length
  node.signal('SIGCONT')
  const isLost = (line: NodeLine): line is Extract<NodeLine, { kind: 'lost' }> => line.kind === 'lost' && line.threadId === context.threadId
  await node.waitFor(isLost, 'the zombie to find its session lost', 30_000, woke)
  const refusal = node.lines
    .slice(woke)
    .find((line): line is Extract<NodeLine, { kind: 'notice' }> => line.kind === 'notice' && line.level === 'error')
  await until(() => gone(tool.pid), `the zombie's shell command (pid ${tool.pid}) to be gone`, 30_000)
  stoppedTools.delete(tool.pid)
  return {
    kind: 'SIGSTOP',
    victim: node.name,
    newOwner: nameOf(context, next.pid),
    failoverMs,
    epochs: { zombie: epoch, next: next.epoch },
    refusal: refusal?.text ?? '',
    toolPid: tool.pid,
  }
}

export async function restartPostgres(context: FaultContext): Promise<FaultReport> {
  const startedAt = performance.now()
  await context.postgres.restart({ mode: 'immediate' })
  return { kind: 'postgres restart', restartMs: Math.round(performance.now() - startedAt) }
}
