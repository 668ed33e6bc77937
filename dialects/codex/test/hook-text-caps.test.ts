/**
 * Caps on hook texts that reach the model: a hook that writes tens of MB to stderr and exits 2 gives the model a
 * bounded text with a visible marker (or Codex's own spill preview), and the session log stays small.
 */
import { statSync } from 'node:fs'
import { HOOK_TEXT_HEAD_BYTES, HOOK_TEXT_TAIL_BYTES } from '@harness-kernel/hook-protocol'
import { type Message, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns } from './codex-harness.js'

const setup = codexHarnessPerTest()

const STDERR_BYTES = 20_000_000
/** Writes `STDERR_BYTES` bytes to stderr (`a` first, `z` last, `m` between), then exits 2. */
const LOUD = `printf a >&2; head -c ${STDERR_BYTES - 2} /dev/zero | tr '\\0' m >&2; printf z >&2; exit 2`
const MARKER = `…[truncated: 20,000,000 bytes in all; the first ${HOOK_TEXT_HEAD_BYTES.toLocaleString('en-US')} and last ${HOOK_TEXT_TAIL_BYTES.toLocaleString('en-US')} shown]…`

const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const loud = (event: string) => ({ [event]: [{ hooks: [{ type: 'command', command: LOUD }] }] })

function toolOutput(messages: readonly Message[]): string {
  for (const message of messages) for (const block of message.content) if (block.type === 'tool_result') return block.output
  throw new Error('no tool result')
}

describe('a hook writing 20 MB to stderr and exiting 2', () => {
  it('PreToolUse: the block reason is capped with the marker; the log stays small', async () => {
    const h = setup({ script: [shellCall('echo ran'), { text: 'done' }], hooks: loud('PreToolUse') })
    const session = await h.kernel.startSession()
    await session.run('go')
    const output = toolOutput(h.model.requests[1]!.messages)
    expect(output.startsWith('Command blocked by PreToolUse hook: am')).toBe(true)
    expect(output).toContain(MARKER)
    expect(output.endsWith('mz. Command: echo ran')).toBe(true)
    expect(Buffer.byteLength(output)).toBeLessThan(HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES + 200)
    const [run] = hookRuns(session.transcriptPath)
    expect(run).toMatchObject({ status: 'blocked', entries: [{ kind: 'feedback' }] })
    expect(run!.entries![0]!.text).toContain('…[truncated: 20,000,000 bytes in all;')
    expect(Buffer.byteLength(run!.entries![0]!.text)).toBeLessThan(3000)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES + 20_000)
  })

  it('PostToolUse: the feedback is Codex’s spill preview of the capped text; the log stays small', async () => {
    const h = setup({ script: [shellCall('echo ran'), { text: 'done' }], hooks: loud('PostToolUse') })
    const session = await h.kernel.startSession()
    await session.run('go')
    const output = toolOutput(h.model.requests[1]!.messages)
    expect(output).toContain('tokens truncated')
    expect(output).toContain('Full hook output saved to: ')
    expect(Buffer.byteLength(output)).toBeLessThan(10_500)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(30_000)
  })

  it('Stop: the continuation prompt is Codex’s spill preview; the log stays small', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: { Stop: [{ hooks: [{ type: 'command', command: `[ -e "$HOOK_OUT/once" ] && exit 0; touch "$HOOK_OUT/once"; ${LOUD}` }] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const prompt = h.model.requests[1]!.messages.map(textOf).join('\n')
    expect(prompt).toContain('Full hook output saved to: ')
    expect(Buffer.byteLength(prompt)).toBeLessThan(12_000)
    await session.end()
    expect(statSync(session.transcriptPath).size).toBeLessThan(40_000)
  })
})
