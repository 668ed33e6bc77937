/**
 * A hook or the shell tool writing a very large output keeps the kernel's memory bounded and the model's text capped.
 * Each case runs in a child process (the build) that reports its peak RSS (`VmHWM`: `process.resourceUsage().maxRSS`
 * would carry the test runner's own high-water mark across the spawn). 256 MiB per case here (128 MiB on each of
 * stdout and stderr at once); `npm run bench -- reliability` writes 1 GiB per stream.
 *
 * Bound: 200 MB peak RSS. A child running a kernel with both dialects peaks at about 70 MB on a tiny output and at
 * about 105–120 MB on this one (the runner keeps the last 1 MiB of each stream, the hook caps 32 KiB; the rest is
 * garbage the Node heap has not collected yet). A capture that grew with the output would pass 256 MB.
 */
import { HOOK_TEXT_HEAD_BYTES, HOOK_TEXT_TAIL_BYTES } from '@harness-kernel/hook-protocol'
import { describe, expect, it } from 'vitest'
import { runBigOutput } from '../../bench/src/reliability/big-output.js'

const BYTES = 128 * 1024 * 1024
const RSS_BOUND = 200 * 1024 * 1024
const HOOK_MARKER = `…[truncated: ${BYTES.toLocaleString('en-US')} bytes in all; the first ${HOOK_TEXT_HEAD_BYTES.toLocaleString('en-US')} and last ${HOOK_TEXT_TAIL_BYTES.toLocaleString('en-US')} shown]…`

describe('128 MiB on stdout and 128 MiB on stderr at once', () => {
  it.each(['codex-hook', 'claude-code-hook'] as const)(
    '%s exiting 2: RSS stays under 200 MB; the block reason is capped with the marker',
    async (source) => {
      const result = await runBigOutput({ source, bytesPerStream: BYTES })
      expect(result.turnStatus).toBe('completed')
      expect(result.peakRssBytes).toBeLessThan(RSS_BOUND)
      expect(result.modelText).toContain(HOOK_MARKER)
      expect(result.modelText).toContain('<eee')
      expect(result.modelText).toContain('eee>')
      expect(result.modelText).not.toContain('ooo')
      expect(Buffer.byteLength(result.modelText)).toBeLessThan(HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES + 1000)
    },
  )

  it('the shell tool: RSS stays under 200 MB; the output is capped with the marker', async () => {
    const result = await runBigOutput({ source: 'shell-tool', bytesPerStream: BYTES })
    expect(result.turnStatus).toBe('completed')
    expect(result.peakRssBytes).toBeLessThan(RSS_BOUND)
    expect(result.modelText).toMatch(new RegExp(`\\[stdout truncated: kept last \\d+ of ${BYTES} bytes\\]`))
    expect(result.modelText).toMatch(new RegExp(`\\[stderr truncated: kept last \\d+ of ${BYTES} bytes\\]`))
    expect(result.modelText).toContain('ooo>')
    expect(result.modelText).toContain('eee>')
    expect(Buffer.byteLength(result.modelText)).toBeLessThan(256 * 1024)
  })
})
