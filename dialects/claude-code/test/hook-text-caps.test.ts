/**
 * Caps on hook texts that reach the model: a hook that writes tens of MB to stderr and exits 2 gives the model a
 * bounded text with a visible marker, and the session log stays small.
 */
import { statSync } from 'node:fs'
import { HOOK_TEXT_HEAD_BYTES, HOOK_TEXT_TAIL_BYTES } from '@harness-kernel/hook-protocol'
import type { Message } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest } from './claude-harness.js'

const harness = claudeHarnessPerTest()

const STDERR_BYTES = 20_000_000
/** Writes `STDERR_BYTES` bytes to stderr (`a` first, `z` last, `m` between), then exits 2. */
const LOUD = `printf a >&2; head -c ${STDERR_BYTES - 2} /dev/zero | tr '\\0' m >&2; printf z >&2; exit 2`
const MARKER = `…[truncated: 20,000,000 bytes in all; the first ${HOOK_TEXT_HEAD_BYTES.toLocaleString('en-US')} and last ${HOOK_TEXT_TAIL_BYTES.toLocaleString('en-US')} shown]…`
const CAP = HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES
const loud = (event: string) => ({ [event]: [{ hooks: [{ type: 'command', command: LOUD }] }] })

function toolOutput(messages: readonly Message[]): string {
  for (const message of messages) for (const block of message.content) if (block.type === 'tool_result') return block.output
  throw new Error('no tool result')
}

describe('a hook writing 20 MB to stderr and exiting 2', () => {
  it('PreToolUse: the deny reason is capped with the marker; the log stays small', async () => {
    const h = harness({ script: [bash('echo ran'), { text: 'done' }], hooks: loud('PreToolUse'), options: { rendering: 'classic' } })
    const session = await h.kernel.startSession()
    await session.run('go')
    const output = toolOutput(h.requests()[1]!.messages)
    expect(output.startsWith(`PreToolUse:Bash hook error: [${LOUD}]: am`)).toBe(true)
    expect(output).toContain(MARKER)
    expect(output.endsWith('mz')).toBe(true)
    expect(Buffer.byteLength(output)).toBeLessThan(CAP + 500)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(CAP + 20_000)
  })

  it('PostToolUse: the blocking-error text is capped with the marker; the log stays small', async () => {
    const h = harness({ script: [bash('echo hi'), { text: 'done' }], hooks: loud('PostToolUse'), options: { rendering: 'classic' } })
    const session = await h.kernel.startSession()
    await session.run('go')
    const output = toolOutput(h.requests()[1]!.messages)
    expect(output).toContain(`PostToolUse:Bash hook blocking error from command: "${LOUD}": [${LOUD}]: am`)
    expect(output).toContain(MARKER)
    expect(output).toContain('mz')
    expect(Buffer.byteLength(output)).toBeLessThan(CAP + 1000)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(CAP + 20_000)
  })

  it('Stop: the feedback block is capped with the marker and logged once', async () => {
    const once = `[ -e "$HOOK_OUT/once" ] && exit 0; touch "$HOOK_OUT/once"; ${LOUD}`
    const h = harness({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: { Stop: [{ hooks: [{ type: 'command', command: once }] }] },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const sent = JSON.stringify(h.requests()[1]!.messages)
    expect(sent).toContain('Stop hook feedback:')
    expect(sent).toContain(MARKER)
    expect(sent.length).toBeLessThan(CAP + 2000)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(CAP + 20_000)
  })
})
