import { readFileSync } from 'node:fs'
import type { Session, SessionEvent } from '@harness-kernel/kernel'
import { subagents } from '@harness-kernel/subagents'
import { describe, expect, it } from 'vitest'
import { claudeHarnessPerTest, recordEvents } from './claude-harness.js'

const harness = claudeHarnessPerTest()

const EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolBatch', 'SubagentStart', 'SubagentStop', 'Stop']
const AGENT_CALL = {
  name: 'Agent',
  id: 'toolu_1',
  input: { description: 'sub job', prompt: 'sub task', subagent_type: 'general-purpose', run_in_background: false },
}

function subagentLink(session: Session): SessionEvent & { type: 'subagent/start' } {
  const events = readFileSync(session.transcriptPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
  return events.find((event) => event.type === 'subagent/start') as SessionEvent & { type: 'subagent/start' }
}

/**
 * Checked against Claude Code 2.1.332 (`claude -p` with the Agent tool and `run_in_background:false`, 2 runs of the
 * r23-subagent probe): the order of events, and the keys of each payload in order.
 */
describe('a subagent (the Agent tool) runs Claude Code’s hooks with its payloads', () => {
  it('fires SubagentStart, the subagent’s tool events with agent_id/agent_type, then SubagentStop, under the main session', async () => {
    const h = harness({
      script: [
        { tool_calls: [AGENT_CALL] },
        { tool_calls: [{ name: 'shell', id: 'toolu_2', input: { command: 'echo sub' } }] },
        { text: 'CHILD FINAL' },
        { text: 'PARENT FINAL' },
      ],
      hooks: recordEvents(EVENTS),
      plugins: [subagents()],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('Delegate.')
    expect(result.lastAssistantMessage).toBe('PARENT FINAL')
    const link = subagentLink(session)
    const calls = h.calls()
    expect(calls.map((call) => [call.event, call.payload.tool_name ?? '', call.payload.agent_id === undefined ? 'main' : 'sub'])).toEqual([
      ['UserPromptSubmit', '', 'main'],
      ['PreToolUse', 'Agent', 'main'],
      ['SubagentStart', '', 'sub'],
      ['PreToolUse', 'Bash', 'sub'],
      ['PostToolUse', 'Bash', 'sub'],
      ['PostToolBatch', '', 'sub'],
      ['SubagentStop', '', 'sub'],
      ['PostToolUse', 'Agent', 'main'],
      ['PostToolBatch', '', 'main'],
      ['Stop', '', 'main'],
    ])
    // One session id and one prompt id throughout; the agent is the Agent tool's.
    const promptId = calls[0]?.payload.prompt_id
    for (const call of calls) {
      expect(call.payload.session_id).toBe(session.id)
      expect(call.payload.transcript_path).toBe(session.transcriptPath)
      expect(call.payload.prompt_id).toBe(promptId)
      if (call.payload.agent_id !== undefined)
        expect([call.payload.agent_id, call.payload.agent_type]).toEqual([link.agentId, 'general-purpose'])
    }
    expect(link.agentId).toMatch(/^a[0-9a-f]{16}$/)
    const byEvent = (event: string, which = 0) => h.calls(event)[which]?.payload as Record<string, unknown>
    expect(Object.keys(byEvent('SubagentStart'))).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'agent_id',
      'agent_type',
      'hook_event_name',
    ])
    expect(Object.keys(byEvent('PreToolUse', 1))).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'agent_id',
      'agent_type',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_use_id',
    ])
    const stop = byEvent('SubagentStop')
    expect(Object.keys(stop)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'agent_id',
      'agent_type',
      'hook_event_name',
      'stop_hook_active',
      'agent_transcript_path',
      'last_assistant_message',
      'background_tasks',
      'session_crons',
    ])
    expect(stop).toMatchObject({
      stop_hook_active: false,
      agent_transcript_path: link.transcriptPath,
      last_assistant_message: 'CHILD FINAL',
    })
    // PostToolUse of the Agent call: Claude Code 2.1.336's completed-agent object, key for key, the note naming the
    // tools the subagent used in `toolsUsedLine` and no longer in `content`; the model got the note, then the final text.
    const response = byEvent('PostToolUse', 1).tool_response as Record<string, unknown>
    expect(Object.keys(response)).toEqual([
      'status',
      'prompt',
      'agentId',
      'agentType',
      'toolsUsed',
      'harnessNoteCount',
      'harnessTailCount',
      'adviceNotes',
      'harnessSectionHash',
      'content',
      'resolvedModel',
      'totalDurationMs',
      'totalTokens',
      'totalToolUseCount',
      'usage',
      'toolStats',
      'toolsUsedLine',
      'canContinueAgent',
    ])
    const note = '<tools-used-before-summary>Bash</tools-used-before-summary>\n'
    expect(response).toMatchObject({
      status: 'completed',
      prompt: 'sub task',
      agentId: link.agentId,
      agentType: 'general-purpose',
      toolsUsed: ['Bash'],
      harnessNoteCount: 0,
      adviceNotes: [],
      content: [{ type: 'text', text: 'CHILD FINAL' }],
      totalToolUseCount: 1,
      toolStats: { readCount: 0, searchCount: 0, bashCount: 1, editFileCount: 0, linesAdded: 0, linesRemoved: 0, otherToolCount: 0 },
      toolsUsedLine: '<tools-used-before-summary>Bash</tools-used-before-summary>',
      canContinueAgent: false,
    })
    // PostToolBatch's entry for it is the text as the model got it, in a text block.
    expect((byEvent('PostToolBatch', 1).tool_calls as { tool_response: unknown }[])[0]?.tool_response).toEqual([
      { type: 'text', text: `${note}CHILD FINAL` },
    ])
    const last = h.requests().at(-1)
    const toolResult = last?.messages.at(-1)?.content.find((block) => block.type === 'tool_result')
    expect(toolResult).toMatchObject({ callId: 'toolu_1', output: `${note}CHILD FINAL`, isError: false })
  })

  // Claude Code 2.1.336 (a subagent that made no tool call, 1 run; 2.1.332 the same but for `adviceNotes`).
  it('the Agent PostToolUse of a subagent that used no tool has no toolsUsed, toolStats or toolsUsedLine', async () => {
    const h = harness({
      script: [{ tool_calls: [AGENT_CALL] }, { text: 'CHILD FINAL' }, { text: 'PARENT FINAL' }],
      hooks: recordEvents(['PostToolUse']),
      plugins: [subagents()],
    })
    const session = await h.kernel.startSession()
    await session.run('Delegate.')
    const response = h.calls('PostToolUse')[0]?.payload.tool_response as Record<string, unknown>
    expect(Object.keys(response)).toEqual([
      'status',
      'prompt',
      'agentId',
      'agentType',
      'harnessNoteCount',
      'harnessTailCount',
      'adviceNotes',
      'harnessSectionHash',
      'content',
      'resolvedModel',
      'totalDurationMs',
      'totalTokens',
      'totalToolUseCount',
      'usage',
      'canContinueAgent',
    ])
    expect(response).toMatchObject({ harnessNoteCount: 0, content: [{ type: 'text', text: 'CHILD FINAL' }], totalToolUseCount: 0 })
    const toolResult = h
      .requests()
      .at(-1)
      ?.messages.at(-1)
      ?.content.find((block) => block.type === 'tool_result')
    expect(toolResult).toMatchObject({ output: 'CHILD FINAL' })
  })

  it('a SubagentStop block continues the subagent with the reason, and stop_hook_active is then true', async () => {
    const h = harness({
      script: [{ tool_calls: [AGENT_CALL] }, { text: 'CHILD FIRST' }, { text: 'CHILD SECOND' }, { text: 'PARENT FINAL' }],
      hooks: recordEvents(['SubagentStop']),
      responses: { 'SubagentStop-h.1.stdout': JSON.stringify({ decision: 'block', reason: 'check again' }) },
      plugins: [subagents()],
    })
    const session = await h.kernel.startSession()
    await session.run('Delegate.')
    expect(h.calls('SubagentStop').map((call) => [call.payload.stop_hook_active, call.payload.last_assistant_message])).toEqual([
      [false, 'CHILD FIRST'],
      [true, 'CHILD SECOND'],
    ])
    // The subagent's third request carried the block reason; the parent got the final text.
    const requests = h.requests()
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain('check again')
    expect(requests[3]?.messages.at(-1)?.content.find((block) => block.type === 'tool_result')).toMatchObject({ output: 'CHILD SECOND' })
    // The reminder says `Stop hook feedback:` for a SubagentStop too, as Claude Code's does.
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain('Stop hook feedback:\\ncheck again')
  })
})
