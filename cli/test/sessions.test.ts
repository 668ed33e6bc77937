import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, project, SHELL_SCRIPT } from './support.js'

async function withTwoSessions() {
  const cwd = project({ 'script.yaml': SHELL_SCRIPT, 'short.yaml': '- text: short answer\n' })
  const first = await harness(['run', 'first prompt\nwith a second line', '--model', 'scripted:script.yaml', '--json'], { cwd })
  const second = await harness(['run', 'second prompt', '--model', 'scripted:short.yaml', '--json'], { cwd })
  return { cwd, first: JSON.parse(first.stdout).sessionId as string, second: JSON.parse(second.stdout).sessionId as string }
}

describe('harness sessions', () => {
  it('list prints a table, or a JSON array with --json', async () => {
    const { cwd, first, second } = await withTwoSessions()

    const text = await harness(['sessions', 'list'], { cwd })
    expect(text.code).toBe(0)
    const [header, ...rows] = text.stdout.trimEnd().split('\n')
    expect(header).toMatch(/^ID +CREATED +TURNS +ENDED +FIRST PROMPT$/)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(new RegExp(`^${first} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +1 +yes +first prompt …$`))
    expect(rows[1]).toMatch(new RegExp(`^${second} .* second prompt$`))

    const json = await harness(['sessions', 'list', '--json'], { cwd })
    expect(json.code).toBe(0)
    const sessions = JSON.parse(json.stdout)
    expect(sessions).toHaveLength(2)
    expect(sessions[0]).toMatchObject({
      id: first,
      path: join(cwd, '.harness/sessions', `${first}.jsonl`),
      cwd,
      turns: 1,
      ended: true,
      firstPrompt: 'first prompt\nwith a second line',
    })
  })

  it('list with no sessions, and with --sessions-dir', async () => {
    const cwd = project()
    const empty = await harness(['sessions', 'list'], { cwd })
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe(`no sessions in ${join(cwd, '.harness/sessions')}\n`)
    const other = await harness(['sessions', 'list', '--json', '--sessions-dir', 'elsewhere'], { cwd })
    expect(JSON.parse(other.stdout)).toEqual([])
  })

  it('show renders the log readably', async () => {
    const { cwd, first } = await withTwoSessions()
    const result = await harness(['sessions', 'show', first], { cwd })
    expect(result.code).toBe(0)
    const out = result.stdout
    expect(out).toContain(`session ${first}`)
    expect(out).toContain(`  log      ${join(cwd, '.harness/sessions', `${first}.jsonl`)}`)
    expect(out).toMatch(/── turn 1 · .* ──/)
    expect(out).toContain('user:\n  first prompt\n  with a second line')
    expect(out).toContain('assistant:\n  Let me check.\n  → shell {"command":"echo hello from shell"} [call_1]')
    expect(out).toContain('[tool call] shell [call_1] allowed')
    expect(out).toContain('[tool result] shell [call_1] ok\n  hello from shell')
    expect(out).toContain('assistant:\n  All done.\n  The shell said hello.')
    expect(out).toContain('── turn completed ──')
    expect(out).toMatch(/── session ended · .* · other ──/)
  })

  it('show --json prints the raw events', async () => {
    const { cwd, second } = await withTwoSessions()
    const result = await harness(['sessions', 'show', second, '--json'], { cwd })
    expect(result.code).toBe(0)
    const events = JSON.parse(result.stdout)
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'session/start',
      'turn/start',
      'step/start',
      'message',
      'message',
      'turn/end',
      'session/end',
    ])
    expect(events.map((event: { seq: number }) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('show renders notices and denied calls', async () => {
    const cwd = project({
      'script.yaml': SHELL_SCRIPT,
      'harness.config.mjs': `export default {
  model: 'scripted:script.yaml',
  plugins: ({ defaults }) => [...defaults, {
    name: 'no-shell',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tapPromise('no-shell', async () => ({ kind: 'deny', reason: 'not today' }))
      kernel.hooks.sessionStart.tapPromise('no-shell', async ({ session }) => session.notice('info', 'shell is off', 'no-shell'))
    },
  }],
}
`,
    })
    const run = await harness(['run', 'hi', '--json'], { cwd })
    expect(run.stderr).toContain('[notice:info] shell is off')
    expect(run.stderr.match(/\[notice:info\]/g)).toHaveLength(1)
    const { sessionId } = JSON.parse(run.stdout)
    const result = await harness(['sessions', 'show', sessionId], { cwd })
    expect(result.stdout).toContain('[notice:info] shell is off (no-shell)')
    expect(result.stdout).toContain('[tool call] shell [call_1] denied')
    expect(result.stdout).toContain('[tool result] shell [call_1] error\n  not today')
  })

  it('show of a missing session exits 2 naming the sessions folder', async () => {
    const cwd = project()
    const result = await harness(['sessions', 'show', 'nope'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `harness: no session nope in ${join(cwd, '.harness/sessions')} (harness sessions list shows the sessions there)\n`,
    )
    expect(result.stdout).toBe('')
  })

  it('show takes a unique prefix of the id; an ambiguous one exits 2 listing the matches', async () => {
    const { cwd, first, second } = await withTwoSessions()
    const dir = join(cwd, '.harness/sessions')
    const prefix = first.slice(0, 8)
    const [shown, json] = await Promise.all([
      harness(['sessions', 'show', prefix], { cwd }),
      harness(['sessions', 'show', prefix, '--json'], { cwd }),
    ])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(`session ${first}`)
    expect(shown.stdout).not.toContain(second)
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ type: 'session/start', sessionId: first })

    // A second log whose id starts the same way.
    const twin = `${prefix}-0000-4000-8000-000000000000`
    copyFileSync(join(dir, `${first}.jsonl`), join(dir, `${twin}.jsonl`))
    const [ambiguous, whole] = await Promise.all([
      harness(['sessions', 'show', prefix], { cwd }),
      harness(['sessions', 'show', first], { cwd }),
    ])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stdout).toBe('')
    const [message, header, ...rows] = ambiguous.stderr.trimEnd().split('\n')
    expect(message).toBe(`harness: the session id prefix ${prefix} matches 2 sessions in ${dir}; give more of the id:`)
    expect(header).toMatch(/^ {2}ID +CREATED +TURNS +ENDED +FIRST PROMPT$/)
    expect(rows.map((row) => row.trim().split(/ +/)[0]).sort()).toEqual([first, twin].sort())

    // The whole id still names one session, even when it is another id's prefix.
    expect(whole.code).toBe(0)
  })
})
