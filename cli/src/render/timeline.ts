import type { ModelUsage, SessionEvent } from '@harness-kernel/kernel'

/** What a row of the timeline stands for. */
export type TimelineKind = 'step' | 'tool' | 'hook' | 'steer' | 'compaction' | 'subagent' | 'notice'

/** One bar of the waterfall: where it starts in its turn and how long it took (0 for a moment: a steer, a notice). */
export interface TimelineRow {
  kind: TimelineKind
  /** Milliseconds from the turn's start. */
  startMs: number
  durationMs: number
  /** 1 for what the turn does (steps, steers), 2 for what a step does (its tools, their hooks). */
  depth: 1 | 2
  label: string
  /** Outcome or numbers: `error`, `exit 2`, `1,204 in · 88 out`. */
  detail?: string
  /** The row went wrong (a failed tool, a blocked hook, a dropped steer, an error notice). */
  failed?: boolean
}

export interface TimelineTurn {
  turnId: string
  /** The turn's number in this log, from 1. */
  index: number
  startedAt: string
  durationMs: number
  /** The turn's end status, or `open` when the log has no end for it (still running, or its process died). */
  status: string
  reason?: string
  rows: TimelineRow[]
  /** Summed over the turn's steps, where the log has it. */
  usage: { inputTokens: number; outputTokens: number; costUsd: number | undefined }
}

/**
 * A session's turns as a waterfall, from its log alone: every event carries the time it was written (`at`), so a step
 * lasts from its `step/start` to the model's message, a tool from its call to its result, and a hook run ends when
 * its `hook/run` is written and began `durationMs` before.
 */
export function sessionTimeline(events: readonly SessionEvent[]): TimelineTurn[] {
  const turns: TimelineTurn[] = []
  let turn: { data: TimelineTurn; startMs: number } | undefined
  const steps = new Map<number, TimelineRow>()
  const tools = new Map<string, { row: TimelineRow; atMs: number }>()
  const offset = (event: SessionEvent) => (turn ? timeOf(event) - turn.startMs : 0)
  const add = (row: TimelineRow) => turn?.data.rows.push(row)
  for (const event of events) {
    if (event.type === 'turn/start') {
      turn = { data: newTurn(event, turns.length + 1), startMs: timeOf(event) }
      turns.push(turn.data)
      steps.clear()
      tools.clear()
      continue
    }
    if (!turn) continue
    turn.data.durationMs = Math.max(turn.data.durationMs, offset(event))
    switch (event.type) {
      case 'step/start': {
        const row: TimelineRow = { kind: 'step', startMs: offset(event), durationMs: 0, depth: 1, label: `step ${event.step} · model` }
        steps.set(event.step, row)
        add(row)
        break
      }
      case 'message': {
        if (event.message.role !== 'assistant' || event.message.source.kind !== 'model') break
        const step = [...steps.values()].at(-1)
        if (!step) break
        step.durationMs = offset(event) - step.startMs
        const meta = event.message.meta as { usage?: ModelUsage; costUsd?: number } | undefined
        step.detail = usageText(meta?.usage, meta?.costUsd)
        tally(turn.data, meta?.usage, meta?.costUsd)
        break
      }
      case 'usage': {
        // A step's usage its driver learnt after the step's message (Codex), or a program's own spend beyond its steps.
        const step = event.step === undefined ? undefined : steps.get(event.step)
        if (step && step.detail === undefined) step.detail = usageText(event.usage, event.costUsd)
        tally(turn.data, event.usage, event.costUsd)
        break
      }
      case 'tool/call': {
        const denied = event.decision.startsWith('deny')
        const row: TimelineRow = {
          kind: 'tool',
          startMs: offset(event),
          durationMs: 0,
          depth: 2,
          label: `tool ${event.name} [${event.callId}]`,
          ...(denied ? { detail: event.decision === 'deny-guardrails' ? 'refused by the sandbox policy' : 'denied', failed: true } : {}),
        }
        tools.set(event.callId, { row, atMs: timeOf(event) })
        add(row)
        break
      }
      case 'tool/result': {
        const tool = tools.get(event.callId)
        if (!tool) break
        tool.row.durationMs = timeOf(event) - tool.atMs
        if (event.isError && !tool.row.failed) Object.assign(tool.row, { detail: 'error', failed: true })
        break
      }
      case 'hook/run': {
        const durationMs = typeof event.durationMs === 'number' ? Math.max(0, event.durationMs) : 0
        const facts = [
          event.status,
          ...(event.exitCode !== undefined && event.exitCode !== null ? [`exit ${event.exitCode}`] : []),
          ...(event.timedOut ? ['timed out'] : []),
        ]
        add({
          kind: 'hook',
          startMs: Math.max(0, offset(event) - durationMs),
          durationMs,
          depth: 2,
          label: `hook ${event.dialect} ${event.event}${event.command ? ` ${event.command}` : event.key ? ` ${event.key}` : ''}`,
          detail: facts.join(', '),
          ...(event.status === 'failed' || event.status === 'blocked' || event.status === 'stopped' ? { failed: true } : {}),
        })
        break
      }
      case 'steering/accepted':
        add({
          kind: 'steer',
          startMs: offset(event),
          durationMs: 0,
          depth: 1,
          label: `steer at ${event.boundary} (${event.transport})`,
          detail: `${event.itemIds.length} recorded${event.droppedIds.length > 0 ? `, ${event.droppedIds.length} dropped by a hook` : ''}`,
        })
        break
      case 'steering/dropped':
        add({
          kind: 'steer',
          startMs: offset(event),
          durationMs: 0,
          depth: 1,
          label: `steer dropped (${event.transport})`,
          detail: `${event.itemIds.length} not recorded: ${event.reason}`,
          failed: true,
        })
        break
      case 'steering/returned':
        add({
          kind: 'steer',
          startMs: offset(event),
          durationMs: 0,
          depth: 1,
          label: `steer returned at ${event.boundary} (${event.transport})`,
          detail: `${event.itemIds.length} handed back to the host: ${event.reason}`,
        })
        break
      case 'compaction':
        add({
          kind: 'compaction',
          startMs: offset(event),
          durationMs: 0,
          depth: 1,
          label: `compaction (${event.trigger})`,
          detail: `${event.kept} kept${event.tokensBefore !== undefined ? `, ~${event.tokensBefore.toLocaleString('en-US')} tokens before` : ''}`,
        })
        break
      case 'subagent/start':
        add({
          kind: 'subagent',
          startMs: offset(event),
          durationMs: 0,
          depth: 2,
          label: `subagent ${event.agentType} ${event.agentId}`,
          detail: `session ${event.sessionId}`,
        })
        break
      case 'notice':
        if (event.level === 'info') break
        add({
          kind: 'notice',
          startMs: offset(event),
          durationMs: 0,
          depth: 1,
          label: `${event.level}: ${event.text}`,
          ...(event.level === 'error' ? { failed: true } : {}),
        })
        break
      case 'turn/end':
        if (event.turnId !== turn.data.turnId) break
        turn.data.status = event.status
        if (event.reason ?? event.error) turn.data.reason = event.reason ?? event.error
        turn = undefined
        break
    }
  }
  for (const each of turns) each.rows.sort((a, b) => a.startMs - b.startMs)
  return turns
}

function newTurn(event: Extract<SessionEvent, { type: 'turn/start' }>, index: number): TimelineTurn {
  return {
    turnId: event.turnId,
    index,
    startedAt: event.at,
    durationMs: 0,
    status: 'open',
    rows: [],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: undefined },
  }
}

function timeOf(event: SessionEvent): number {
  return Date.parse(event.at)
}

function tally(turn: TimelineTurn, usage: ModelUsage | undefined, costUsd: number | undefined): void {
  turn.usage.inputTokens += usage?.inputTokens ?? 0
  turn.usage.outputTokens += usage?.outputTokens ?? 0
  if (typeof costUsd === 'number') turn.usage.costUsd = (turn.usage.costUsd ?? 0) + costUsd
}

function usageText(usage: ModelUsage | undefined, costUsd: number | undefined): string | undefined {
  const parts: string[] = []
  if (usage?.inputTokens !== undefined) parts.push(`${usage.inputTokens.toLocaleString('en-US')} in`)
  if (usage?.outputTokens !== undefined) parts.push(`${usage.outputTokens.toLocaleString('en-US')} out`)
  if (typeof costUsd === 'number') parts.push(`$${costUsd.toFixed(4)}`)
  return parts.length > 0 ? parts.join(' · ') : undefined
}
