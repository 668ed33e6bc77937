import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { defaultTranscriptDir, projectFolderName } from '../src/transcript/transcript-dir.js'
import { TRANSCRIPT_FORMAT_VERSION } from '../src/transcript/transcript-lines.js'
import { ClaudeTranscriptWriter } from '../src/transcript/transcript-writer.js'
import { bash, type ClaudeHarness, claudeHarnessPerTest, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()

interface Line {
  type: string
  uuid: string
  parentUuid: string | null
  message: { id?: string; content: string | Record<string, unknown>[] }
  [key: string]: unknown
}

/** A line's content blocks (a prompt's content is a string). */
function blocks(line: Line): Record<string, unknown>[] {
  return line.message.content as Record<string, unknown>[]
}

function readLines(path: string): Line[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line)
}

/** A hook script in the test's folder (shell, calling node), made executable. */
function script(h: ClaudeHarness, name: string, body: string): string {
  const path = join(h.dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

/** The common Stop-hook pattern: read `transcript_path` from stdin, print the last assistant message's text. */
const LAST_ASSISTANT_TEXT = `transcript=$(node -e 'let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>process.stdout.write(JSON.parse(s).transcript_path))')
node -e '
const fs = require("fs")
const lines = fs.readFileSync(process.argv[1], "utf8").trim().split("\\n").map((line) => JSON.parse(line))
const last = lines.filter((line) => line.type === "assistant" && line.message.content.some((block) => block.type === "text")).at(-1)
fs.writeFileSync(process.argv[2], last.message.content.filter((block) => block.type === "text").map((block) => block.text).join(""))
' "$transcript" "$HOOK_OUT/last-assistant.txt"`

describe("transcript: 'claude-code' (a transcript in Claude Code 2.1.332's format)", () => {
  it('a Stop hook that parses transcript_path reads the last assistant message, as the kernel has it', async () => {
    const h = harness({ script: [bash('echo hi'), { text: 'All done: the command printed hi.' }], options: { transcript: 'claude-code' } })
    const stop = script(h, 'last-assistant.sh', LAST_ASSISTANT_TEXT)
    writeFileSync(
      join(h.project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: stop }] }] } }),
    )
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    const last = session.messages.findLast((message) => message.role === 'assistant')!
    expect(readFileSync(join(h.out, 'last-assistant.txt'), 'utf8')).toBe(textOf(last))
    expect(textOf(last)).toBe('All done: the command printed hi.')
  })

  it('a tool turn writes user → assistant (tool_use Bash) → user (tool_result) → assistant, chained by parentUuid', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      options: { transcript: 'claude-code' },
    })
    const session = await h.kernel.startSession()
    await session.run('please run it')
    const path = join(h.configDir, 'projects', projectFolderName(h.project), `${session.id}.jsonl`)
    const [stop] = h.calls('Stop')
    expect(stop!.payload.transcript_path).toBe(path)
    const lines = readLines(path)
    expect(lines.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(lines[0]!.parentUuid).toBeNull()
    for (let index = 1; index < lines.length; index++) expect(lines[index]!.parentUuid).toBe(lines[index - 1]!.uuid)
    const envelope = { isSidechain: false, userType: 'external', entrypoint: 'harness-kernel', cwd: h.project, sessionId: session.id }
    for (const line of lines) expect(line).toMatchObject({ ...envelope, version: TRANSCRIPT_FORMAT_VERSION })
    const [prompt, toolUse, toolResult, reply] = lines as [Line, Line, Line, Line]
    expect(prompt).toMatchObject({ promptId: stop!.payload.prompt_id, message: { role: 'user', content: 'please run it' } })
    expect(prompt.permissionMode).toBe('bypassPermissions')
    expect(toolUse.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi', description: 'run echo hi' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
    })
    expect(toolUse.message.id).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(toolResult).toMatchObject({
      promptId: stop!.payload.prompt_id,
      message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', is_error: false }] },
      toolUseResult: { stdout: 'hi', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      sourceToolAssistantUUID: toolUse.uuid,
    })
    const kernelResult = session.messages.find((message) => message.role === 'tool')!.content[0]!
    expect(blocks(toolResult)[0]!.content).toBe(kernelResult.type === 'tool_result' ? kernelResult.output : undefined)
    expect(reply.message).toMatchObject({ content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' })
    expect(reply.message.id).not.toBe(toolUse.message.id)
  })

  it('is complete when a PostToolUse hook runs: the prompt and the tool_use line are already on disk', async () => {
    const h = harness({ script: [bash('echo hi'), { text: 'done' }], options: { transcript: 'claude-code' } })
    const copy = script(
      h,
      'copy-transcript.sh',
      `node -e 'let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>require("fs").copyFileSync(JSON.parse(s).transcript_path,process.argv[1]))' "$HOOK_OUT/at-post-tool-use.jsonl"`,
    )
    writeFileSync(
      join(h.project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: copy }] }] } }),
    )
    const session = await h.kernel.startSession()
    await session.run('go')
    const seen = readLines(join(h.out, 'at-post-tool-use.jsonl'))
    expect(seen.map((line) => line.type)).toEqual(['user', 'assistant'])
    expect(seen[1]!.message.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi', description: 'run echo hi' } },
    ])
  })

  it('by default, payloads carry the kernel session log and no Claude transcript is written', async () => {
    const h = harness({ script: [{ text: 'done' }], hooks: { Stop: [{ hooks: [rec('Stop')] }] } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('Stop')[0]!.payload.transcript_path).toBe(session.transcriptPath)
    expect(existsSync(join(h.configDir, 'projects'))).toBe(false)
  })

  it('a resumed session continues its file and its parentUuid chain; transcriptDir places the file', async () => {
    const transcriptDir = join(mkdtempSync(join(tmpdir(), 'hk-transcripts-')), 'nested')
    const h = harness({
      script: [{ text: 'first' }, { text: 'second' }],
      hooks: { SessionStart: [{ hooks: [rec('SessionStart')] }] },
      options: { transcript: 'claude-code', transcriptDir },
    })
    const session = await h.kernel.startSession()
    await session.run('one')
    await session.end()
    const resumed = await h.kernel.resumeSession(session.id)
    await resumed.run('two')
    const path = join(transcriptDir, `${session.id}.jsonl`)
    expect(h.calls('SessionStart').map((call) => call.payload.transcript_path)).toEqual([path, path])
    const lines = readLines(path)
    expect(lines.map((line) => [line.type, line.message.content])).toEqual([
      ['user', 'one'],
      ['assistant', [{ type: 'text', text: 'first' }]],
      ['user', 'two'],
      ['assistant', [{ type: 'text', text: 'second' }]],
    ])
    for (let index = 1; index < lines.length; index++) expect(lines[index]!.parentUuid).toBe(lines[index - 1]!.uuid)
  })

  it('a session resumed without its file gets the conversation so far first', async () => {
    const h = harness({ script: [bash('echo hi'), { text: 'first' }, { text: 'second' }], options: { transcript: 'claude-code' } })
    const session = await h.kernel.startSession()
    await session.run('one')
    await session.end()
    const path = join(h.configDir, 'projects', projectFolderName(h.project), `${session.id}.jsonl`)
    rmSync(path)
    const resumed = await h.kernel.resumeSession(session.id)
    await resumed.run('two')
    const lines = readLines(path)
    expect(lines.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
    expect(blocks(lines[2]!)[0]).toMatchObject({ tool_use_id: 'toolu_1', type: 'tool_result' })
    expect(lines[2]!.sourceToolAssistantUUID).toBe(lines[1]!.uuid)
    for (let index = 1; index < lines.length; index++) expect(lines[index]!.parentUuid).toBe(lines[index - 1]!.uuid)
  })
})

describe('transcript lines (unit)', () => {
  const open = (path: string) =>
    new ClaudeTranscriptWriter({
      path,
      envelope: { sessionId: 's-1', cwd: '/p', entrypoint: 'harness-kernel' },
      permissionMode: () => 'default',
      model: () => 'model-x',
      promptId: () => 'prompt-1',
      present: (name, input) => (name === 'shell' ? { toolName: 'Bash', toolInput: input } : { toolName: name, toolInput: input }),
    })

  it("Claude Code's folder and shapes: one line per assistant block, failed results as `Error: …`, Stop feedback as a meta line", () => {
    expect(projectFolderName('/tmp/ccprobe/state/proj')).toBe('-tmp-ccprobe-state-proj')
    expect(projectFolderName('/home/a.b/my_proj')).toBe('-home-a-b-my-proj')
    expect(defaultTranscriptDir('/c', '/x/y')).toBe('/c/projects/-x-y')
    const path = join(mkdtempSync(join(tmpdir(), 'hk-lines-')), 'a', 's-1.jsonl')
    const writer = open(path)
    const at = '2026-01-01T00:00:00.000Z'
    writer.message({ role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }, at)
    writer.message(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running it.' },
          { type: 'tool_call', id: 'c1', name: 'shell', input: { command: 'false' } },
        ],
        source: { kind: 'model' },
      },
      at,
    )
    writer.message(
      { role: 'tool', content: [{ type: 'tool_result', callId: 'c1', output: 'Exit code 1', isError: true }], source: { kind: 'tool' } },
      at,
    )
    writer.message(
      {
        role: 'developer',
        content: [{ type: 'text', text: 'PostToolUse:Bash hook additional context: x' }],
        source: { kind: 'plugin', plugin: 'claude-code-hooks' },
        meta: { claudeCode: { kind: 'tool', event: 'PostToolUse', hookName: 'PostToolUse:Bash', toolCallId: 'c1' } },
      },
      at,
    )
    writer.message(
      {
        role: 'developer',
        content: [{ type: 'text', text: '<system-reminder>…</system-reminder>' }],
        source: { kind: 'plugin', plugin: 'claude-code-hooks' },
        meta: { claudeCode: { kind: 'stop', event: 'Stop', hookName: 'Stop', form: 'json', feedback: 'keep going' } },
      },
      at,
    )
    const lines = readLines(path)
    const tail = { userType: 'external', entrypoint: 'harness-kernel', cwd: '/p', sessionId: 's-1', version: TRANSCRIPT_FORMAT_VERSION }
    const [prompt, text, toolUse, result, feedback] = lines as [Line, Line, Line, Line, Line]
    expect(lines).toHaveLength(5)
    expect(prompt).toEqual({
      parentUuid: null,
      isSidechain: false,
      promptId: 'prompt-1',
      type: 'user',
      message: { role: 'user', content: 'hi' },
      uuid: prompt.uuid,
      timestamp: at,
      permissionMode: 'default',
      ...tail,
    })
    expect(Object.keys(prompt)).toEqual([
      'parentUuid',
      'isSidechain',
      'promptId',
      'type',
      'message',
      'uuid',
      'timestamp',
      'permissionMode',
      ...Object.keys(tail),
    ])
    const message = { id: text.message.id, type: 'message', role: 'assistant', model: 'model-x', stop_sequence: null }
    expect(text).toEqual({
      parentUuid: prompt.uuid,
      isSidechain: false,
      message: { ...message, content: [{ type: 'text', text: 'Running it.' }], stop_reason: null },
      type: 'assistant',
      uuid: text.uuid,
      timestamp: at,
      ...tail,
    })
    expect(toolUse.message).toEqual({
      ...message,
      content: [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'false' } }],
      stop_reason: 'tool_use',
    })
    expect(toolUse.parentUuid).toBe(text.uuid)
    expect(result).toEqual({
      parentUuid: toolUse.uuid,
      isSidechain: false,
      promptId: 'prompt-1',
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', content: 'Exit code 1', is_error: true, tool_use_id: 'c1' }] },
      uuid: result.uuid,
      timestamp: at,
      toolUseResult: 'Error: Exit code 1',
      sourceToolAssistantUUID: toolUse.uuid,
      ...tail,
    })
    expect(Object.keys(blocks(result)[0]!)).toEqual(['type', 'content', 'is_error', 'tool_use_id'])
    expect(feedback).toMatchObject({
      parentUuid: result.uuid,
      type: 'user',
      message: { role: 'user', content: 'Stop hook feedback:\nkeep going' },
      isMeta: true,
    })
    expect(open(path).existed).toBe(true)
    const continued = open(path)
    continued.message({ role: 'user', content: [{ type: 'text', text: 'again' }], source: { kind: 'user' } }, at)
    expect(readLines(path).at(-1)!.parentUuid).toBe(feedback.uuid)
  })
})
