import type { SessionEvent, SessionEventBody } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { sessionTimeline } from '../src/render/timeline.js'
import { duration, renderTimeline } from '../src/render/timeline-text.js'
import { createStyle } from '../src/style.js'
import { harness, project } from './support.js'

/** A log whose events were written at the given milliseconds after 12:00:00. */
function log(...entries: [number, SessionEventBody][]): SessionEvent[] {
  return entries.map(([ms, body], index) => ({
    ...body,
    v: 1,
    seq: index + 1,
    at: new Date(Date.UTC(2026, 11, 5, 12, 0, 0, ms)).toISOString(),
  }))
}

const assistant = (text: string, meta?: Record<string, unknown>): SessionEventBody => ({
  type: 'message',
  turnId: 't1',
  message: { role: 'assistant', content: [{ type: 'text', text }], source: { kind: 'model' }, ...(meta ? { meta } : {}) },
})

describe('the timeline of a session log', () => {
  it('times steps to their model message, tools to their result, hooks back from when they were written; moments are 0', () => {
    const turns = sessionTimeline(
      log(
        [0, { type: 'session/start', sessionId: 's', cwd: '/w', createdAt: '2026-12-05T12:00:00.000Z' }],
        [100, { type: 'turn/start', turnId: 't1' }],
        [100, { type: 'step/start', turnId: 't1', step: 1 }],
        [1300, assistant('calling', { usage: { inputTokens: 1000, outputTokens: 50 }, costUsd: 0.01 })],
        [
          1350,
          {
            type: 'hook/run',
            dialect: 'codex',
            id: 'pre:0:/h',
            event: 'PreToolUse',
            status: 'completed',
            durationMs: 40,
            command: './check.sh',
            exitCode: 0,
          },
        ],
        [1400, { type: 'tool/call', turnId: 't1', step: 1, callId: 'c1', name: 'shell', input: {}, decision: 'allow' }],
        [1900, { type: 'tool/result', turnId: 't1', step: 1, callId: 'c1', output: 'boom', isError: true }],
        [
          2000,
          {
            type: 'steering/accepted',
            turnId: 't1',
            step: 2,
            boundary: 'sampling',
            transport: 'app-server',
            itemIds: ['i1'],
            droppedIds: [],
          },
        ],
        [2000, { type: 'step/start', turnId: 't1', step: 2 }],
        [2600, assistant('done', { usage: { inputTokens: 1200, outputTokens: 20 } })],
        [2700, { type: 'turn/end', turnId: 't1', status: 'completed' }],
        [3000, { type: 'turn/start', turnId: 't2' }],
        [3500, { type: 'steering/dropped', turnId: 't2', transport: 'app-server', itemIds: ['i2'], reason: 'turn ended' }],
      ),
    )
    expect(turns.map((turn) => [turn.turnId, turn.status, turn.durationMs])).toEqual([
      ['t1', 'completed', 2600],
      ['t2', 'open', 500],
    ])
    expect(turns[0]!.usage).toEqual({ inputTokens: 2200, outputTokens: 70, costUsd: 0.01 })
    expect(turns[0]!.rows.map((row) => [row.kind, row.startMs, row.durationMs, row.detail, row.failed ?? false])).toEqual([
      ['step', 0, 1200, '1,000 in · 50 out · $0.0100', false],
      ['hook', 1210, 40, 'completed, exit 0', false],
      ['tool', 1300, 500, 'error', true],
      ['steer', 1900, 0, '1 recorded', false],
      ['step', 1900, 600, '1,200 in · 20 out', false],
    ])
    expect(turns[1]!.rows).toMatchObject([{ kind: 'steer', startMs: 500, failed: true, detail: '1 not recorded: turn ended' }])

    const text = renderTimeline('s', turns, createStyle(false))
    expect(text).toContain('turn 1 · ')
    expect(text).toContain(' · t1 · completed · 2.60 s · 2,200 in · 70 out · $0.0100')
    const tool = text.split('\n').find((line) => line.includes('tool shell [c1]'))!
    // Starts at half the turn on a 32-cell bar, for 500 of 2,600 ms: 6 cells.
    expect(tool).toMatch(/^ +1\.30 s +500 ms {4}tool shell \[c1\] {2}error +█{6}$/)
  })

  it('counts usage recorded after its step’s message (a usage event) for that step and its turn', () => {
    const turns = sessionTimeline(
      log(
        [0, { type: 'turn/start', turnId: 't1' }],
        [0, { type: 'step/start', turnId: 't1', step: 1 }],
        [500, assistant('calling')],
        [900, { type: 'usage', turnId: 't1', step: 1, usage: { inputTokens: 300, outputTokens: 40 }, costUsd: 0.002 }],
        [950, { type: 'usage', turnId: 't1', step: 1, costUsd: 0.001 }],
        [1000, { type: 'turn/end', turnId: 't1', status: 'completed' }],
      ),
    )
    expect(turns[0]!.rows.map((row) => row.detail)).toEqual(['300 in · 40 out · $0.0020'])
    expect(turns[0]!.usage).toEqual({ inputTokens: 300, outputTokens: 40, costUsd: 0.003 })
  })

  it('durations read as people say them', () => {
    expect([duration(0), duration(999.6), duration(3412), duration(125_000)]).toEqual(['0 ms', '1000 ms', '3.41 s', '2 min 05 s'])
  })
})

describe('harness sessions show --timeline', () => {
  it('prints the waterfall of a run, or its turns and rows as JSON', async () => {
    const script = `steps:
  - text: Let me check.
    usage: { inputTokens: 1204, outputTokens: 88 }
    tool_calls:
      - name: shell
        input: { command: "echo hello" }
  - text: Done.
    usage: { inputTokens: 1300, outputTokens: 5 }
`
    const cwd = project({ 'script.yaml': script })
    const run = await harness(['run', 'check', '--model', 'scripted:script.yaml', '--json'], { cwd })
    const id = JSON.parse(run.stdout).sessionId as string
    const text = await harness(['sessions', 'show', id, '--timeline'], { cwd })
    expect(text.code).toBe(0)
    const lines = text.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`session ${id} · 1 turn`)
    expect(lines.find((line) => line.startsWith('turn 1 · '))).toMatch(/ · completed · \d+ ms · 2,504 in · 93 out$/)
    const rows = lines.slice(lines.findIndex((line) => line.trim().startsWith('start')) + 1)
    expect(rows.map((line) => /(step \d · model|tool shell \[call_1\])/.exec(line)?.[1])).toEqual([
      'step 1 · model',
      'tool shell [call_1]',
      'step 2 · model',
    ])
    const json = await harness(['sessions', 'show', id, '--timeline', '--json'], { cwd })
    const turns = JSON.parse(json.stdout)
    expect(turns).toHaveLength(1)
    expect(turns[0].rows.map((row: { kind: string }) => row.kind)).toEqual(['step', 'tool', 'step'])
  })
})
