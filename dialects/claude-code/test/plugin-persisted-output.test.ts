import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PERSIST_THRESHOLD, persistLargeOutput } from '../src/io/persisted-output.js'
import { bash, claudeHarnessPerTest, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()

describe('hook output over 10,000 characters (as Claude Code 2.1.332 shows it)', () => {
  it('reaches the model as a <persisted-output> preview; the file keeps it whole', async () => {
    const long = `LLLLL${'x'.repeat(11_990)}END`
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: {
        'PostToolUse-h.stdout': JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: long } }),
      },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const result = h
      .requests()[1]!
      .messages.flatMap((message) => message.content)
      .find((block) => block.type === 'tool_result')
    const output = result?.type === 'tool_result' ? result.output : ''
    const match = output.match(
      /^hi\n\n<system-reminder>\nPostToolUse:Bash hook additional context: <persisted-output>\nOutput too large \(11\.7KB\)\. Full output saved to: (\S+)\n\nPreview \(first 2KB\):\n(L+x+)\n\.\.\.\n<\/persisted-output>\n<\/system-reminder>$/,
    )
    expect(match).not.toBeNull()
    expect(match![2]).toBe(long.slice(0, 2000))
    expect(match![1]).toMatch(new RegExp(`/${session.id}/hook-toolu_1-PostToolUse-[0-9a-f]{32}-additionalContext\\.txt$`))
    expect(readFileSync(match![1]!, 'utf8')).toBe(long)
  })

  it('leaves output at the threshold alone, and keeps the text whole when the file cannot be written', () => {
    const atLimit = 'y'.repeat(PERSIST_THRESHOLD)
    expect(persistLargeOutput(atLimit, { dir: '/nonexistent', event: 'Stop', field: 'additionalContext' })).toBe(atLimit)
    const over = `${atLimit}z`
    const file = join(mkdtempSync(join(tmpdir(), 'hk-persist-')), 'a-file')
    writeFileSync(file, '')
    expect(persistLargeOutput(over, { dir: join(file, 'below-a-file'), event: 'Stop', field: 'additionalContext' })).toBe(over)
  })
})
