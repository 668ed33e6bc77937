import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, project, readEvents, SHELL_SCRIPT, sessionsIn } from './support.js'

describe('harness run', () => {
  it('runs a turn with the shell tool: answer on stdout, progress on stderr, a session log', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    const result = await harness(['run', 'say hello', '--model', 'scripted:script.yaml'], { cwd })

    expect(result.code).toBe(0)
    expect(result.stdout).toBe('All done.\nThe shell said hello.\n')
    const lines = result.stderr.split('\n')
    expect(lines).toContain('[step 1]')
    expect(lines).toContain('[assistant] Let me check.')
    expect(lines).toContain('[tool] shell {"command":"echo hello from shell"}')
    expect(lines).toContain('[tool] shell ok: hello from shell')
    expect(lines).toContain('[step 2]')
    expect(lines).toContain('[assistant] All done. …')
    expect(lines).toContain('[turn] completed')
    expect(result.stderr).not.toContain('\u001b[')

    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    expect(id).toBeDefined()
    const events = readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`))
    expect(events[0]).toMatchObject({ type: 'session/start', sessionId: id, cwd })
    expect(events.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'hello from shell', isError: false })
    expect(events.at(-2)).toMatchObject({ type: 'turn/end', status: 'completed' })
    expect(events.at(-1)).toMatchObject({ type: 'session/end' })
  })

  it('--json prints exactly one JSON object on stdout', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    const result = await harness(['run', 'say hello', '--model', 'scripted:script.yaml', '--json'], { cwd })

    expect(result.code).toBe(0)
    const output = JSON.parse(result.stdout)
    expect(Object.keys(output)).toEqual(['sessionId', 'transcriptPath', 'turn'])
    expect(output.transcriptPath).toBe(join(cwd, '.harness/sessions', `${output.sessionId}.jsonl`))
    expect(existsSync(output.transcriptPath)).toBe(true)
    expect(output.turn).toMatchObject({ status: 'completed', lastAssistantMessage: 'All done.\nThe shell said hello.' })
    expect(output.turn.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(result.stderr).toContain('[turn] completed')
  })

  it('reads the prompt from stdin when there is no argument, or it is -', async () => {
    const cwd = project({ 'script.yaml': '- text: got it\n' })
    for (const args of [['run'], ['run', '-']]) {
      const result = await harness([...args, '--model', 'scripted:script.yaml', '--json'], { cwd, input: 'prompt from stdin\n' })
      expect(result.code).toBe(0)
      const { turn } = JSON.parse(result.stdout)
      expect(turn.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'prompt from stdin' }] })
    }
  })

  it('an empty prompt is an error (exit 2)', async () => {
    const cwd = project({ 'script.yaml': '- text: unused\n' })
    const result = await harness(['run', '--model', 'scripted:script.yaml'], { cwd, input: '  \n' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('harness: the prompt is empty')
    expect(result.stdout).toBe('')
    expect(sessionsIn(join(cwd, '.harness/sessions'))).toEqual([])
  })

  it('without a model: exit 2 and how to pass one', async () => {
    const cwd = project()
    const result = await harness(['run', 'hello'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      'harness: no model: pass --model scripted:FILE|openai:MODEL|anthropic:MODEL|deepseek:MODEL|ollama:MODEL',
    )
    expect(result.stderr).toContain('HARNESS_MODEL')
  })

  it('takes the model from HARNESS_MODEL', async () => {
    const cwd = project({ 'script.yaml': '- text: from the environment\n' })
    const result = await harness(['run', 'hello'], { cwd, env: { HARNESS_MODEL: 'scripted:script.yaml' } })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('from the environment\n')
  })

  it('names the providers available for an unknown one', async () => {
    const cwd = project()
    const result = await harness(['run', 'hello', '--model', 'gemini:pro'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('harness: unknown model provider "gemini" in "gemini:pro"; the providers are:')
    for (const usage of ['scripted:FILE', 'openai:MODEL', 'anthropic:MODEL', 'deepseek:MODEL', 'ollama:MODEL', 'openai-chat:MODEL'])
      expect(result.stderr).toContain(`\n  ${usage} `)
    const malformed = await harness(['run', 'hello', '--model', 'gpt-5'], { cwd })
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toContain('invalid model "gpt-5": expected PROVIDER:MODEL')
  })

  it('a bad script is an error naming the file (exit 2)', async () => {
    const cwd = project({ 'script.yaml': '- text: 3\n  bogus: true\n' })
    const result = await harness(['run', 'hello', '--model', 'scripted:script.yaml'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('script.yaml')
  })

  it('a failed turn exits 1', async () => {
    const cwd = project({ 'script.yaml': '- error: { message: the model is down, retryable: false }\n' })
    const result = await harness(['run', 'hello', '--model', 'scripted:script.yaml', '--json'], { cwd })
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).turn).toMatchObject({ status: 'failed', error: expect.stringContaining('the model is down') })
    expect(result.stderr).toContain('[notice:error] turn failed: the model is down')
    expect(result.stderr.match(/\[notice:error\]/g)).toHaveLength(1)
    expect(result.stderr).toContain('[turn] failed: the model is down')
  })

  it('--resume runs the prompt as the next turn of a session', async () => {
    const cwd = project({ 'first.yaml': '- text: first answer\n', 'second.yaml': '- text: second answer\n' })
    const first = await harness(['run', 'one', '--model', 'scripted:first.yaml', '--json'], { cwd })
    const { sessionId } = JSON.parse(first.stdout)

    const second = await harness(['run', 'two', '--model', 'scripted:second.yaml', '--resume', sessionId, '--json'], { cwd })
    expect(second.code).toBe(0)
    const output = JSON.parse(second.stdout)
    expect(output.sessionId).toBe(sessionId)
    expect(output.turn.lastAssistantMessage).toBe('second answer')
    expect(second.stderr).toContain(`[session] resumed ${sessionId}`)

    const events = readEvents(output.transcriptPath)
    expect(events.filter((event) => event.type === 'turn/start')).toHaveLength(2)
    expect(events.filter((event) => event.type === 'session/resume')).toHaveLength(1)
    expect(sessionsIn(join(cwd, '.harness/sessions'))).toEqual([sessionId])

    const missing = await harness(['run', 'three', '--model', 'scripted:second.yaml', '--resume', 'no-such-session'], { cwd })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      `harness: no session no-such-session in ${join(cwd, '.harness/sessions')} (harness sessions list shows the sessions there)\n`,
    )
  })

  it('--resume takes a unique prefix of the id; an ambiguous one exits 2 before the session starts, listing the matches', async () => {
    const cwd = project({ 'first.yaml': '- text: first answer\n', 'second.yaml': '- text: second answer\n' })
    const first = await harness(['run', 'one', '--model', 'scripted:first.yaml', '--json'], { cwd })
    const { sessionId, transcriptPath } = JSON.parse(first.stdout)
    const prefix = sessionId.slice(0, 8)

    const resumed = await harness(['run', 'two', '--model', 'scripted:second.yaml', '--resume', prefix, '--json'], { cwd })
    expect(resumed.code).toBe(0)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sessionId, turn: { lastAssistantMessage: 'second answer' } })
    expect(resumed.stderr).toContain(`[session] resumed ${sessionId}`)

    const dir = join(cwd, '.harness/sessions')
    const twin = `${prefix}-0000-4000-8000-000000000000`
    copyFileSync(transcriptPath, join(dir, `${twin}.jsonl`))
    const before = readFileSync(transcriptPath, 'utf8')
    const ambiguous = await harness(['run', 'three', '--model', 'scripted:second.yaml', '--resume', prefix], { cwd })
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stdout).toBe('')
    expect(ambiguous.stderr).toContain(`harness: the session id prefix ${prefix} matches 2 sessions in ${dir}; give more of the id:\n`)
    expect(ambiguous.stderr).toContain(`  ${sessionId} `)
    expect(ambiguous.stderr).toContain(`  ${twin} `)
    expect(ambiguous.stderr).not.toContain('[session]')
    expect(readFileSync(transcriptPath, 'utf8')).toBe(before)
    expect(sessionsIn(dir).sort()).toEqual([sessionId, twin].sort())
  })

  it('--sessions-dir and --cwd', async () => {
    const cwd = project({ 'work/script.yaml': '- text: ok\n' })
    const result = await harness(['run', 'hi', '--cwd', 'work', '--model', 'scripted:script.yaml', '--sessions-dir', 'logs', '--json'], {
      cwd,
    })
    expect(result.code).toBe(0)
    const { transcriptPath } = JSON.parse(result.stdout)
    expect(transcriptPath.startsWith(join(cwd, 'work/logs/'))).toBe(true)
    expect(readEvents(transcriptPath)[0]).toMatchObject({ type: 'session/start', cwd: join(cwd, 'work') })
  })

  it('SIGINT interrupts the turn, ends the session and exits 130', async () => {
    const cwd = project({ 'script.yaml': '- tool_calls: [{ name: shell, input: { command: "sleep 30" } }]\n- text: never\n' })
    const result = await harness(['run', 'wait', '--model', 'scripted:script.yaml', '--json'], {
      cwd,
      onSpawn(child) {
        child.stderr?.on('data', (chunk: Buffer | string) => {
          if (String(chunk).includes('[tool] shell {')) child.kill('SIGINT')
        })
      },
    })
    expect(result.code).toBe(130)
    const { turn, transcriptPath } = JSON.parse(result.stdout)
    expect(turn.status).toBe('interrupted')
    const events = readEvents(transcriptPath)
    expect(events.at(-2)).toMatchObject({ type: 'turn/end', status: 'interrupted' })
    expect(events.at(-1)).toMatchObject({ type: 'session/end' })
  })

  it('usage errors exit 2', async () => {
    const cwd = project()
    const unknown = await harness(['run', 'hi', '--no-such-flag'], { cwd })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown option '--no-such-flag'")
    const none = await harness([], { cwd })
    expect(none.code).toBe(2)
    const help = await harness(['--help'], { cwd })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('run [options] [prompt]')
    expect(help.stdout).toContain('sessions')
    expect(help.stdout).toContain('hooks')
    expect(help.stdout).toContain('app-server')
  })
})
