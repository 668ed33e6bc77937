import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()
const signal = new AbortController().signal

/** The kernel's loop neither compacts nor spawns subagents; plugins that do fire these points, as the tests do here. */
describe('compaction and subagent points', () => {
  it('PreCompact continue:false skips the compaction (halt); PostCompact runs with the trigger; no permission_mode', async () => {
    const h = setup({
      script: [],
      hooks: { PreCompact: [{ matcher: 'manual', hooks: [rec('PreCompact')] }], PostCompact: [{ hooks: [rec('PostCompact')] }] },
      responses: { 'PreCompact-h.stdout': JSON.stringify({ continue: false, stopReason: 'keep my history' }) },
    })
    const session = await h.kernel.startSession()
    const turn = { id: 'compaction-turn', number: 1 }
    const decision = await h.kernel.hooks.preCompact.promise({ kind: 'proceed' }, { session, trigger: 'manual', turn, signal })
    expect(decision).toEqual({ kind: 'halt', reason: 'keep my history' })
    await h.kernel.hooks.postCompact.promise({ session, trigger: 'manual', turn, signal })
    const pre = JSON.parse(h.calls('PreCompact')[0]!.stdin)
    expect(Object.keys(pre)).toEqual(['session_id', 'turn_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'trigger'])
    expect(pre.turn_id).toBe('compaction-turn')
    expect(JSON.parse(h.calls('PostCompact')[0]!.stdin)).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual' })
    const auto = await h.kernel.hooks.preCompact.promise({ kind: 'proceed' }, { session, trigger: 'auto', signal })
    expect(auto).toEqual({ kind: 'proceed' })
  })

  it('SubagentStart context is injected for the next step; SubagentStop blocks continue with a subagent-stop hook prompt', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: {
        SubagentStart: [{ matcher: 'default', hooks: [rec('SubagentStart')] }],
        SubagentStop: [{ hooks: [rec('SubagentStop')] }],
      },
      responses: {
        'SubagentStart-h.stdout': 'child context',
        'SubagentStop-h.stdout': JSON.stringify({ decision: 'block', reason: 'finish the child task' }),
      },
    })
    const session = await h.kernel.startSession()
    const turn = { id: 'turn-1', number: 1 }
    const agent = { id: 'agent-1', type: 'default' }
    await h.kernel.hooks.subagentStart.promise({ session, turn, step: 1, signal, agent })
    const stop = await h.kernel.hooks.subagentStop.promise(
      { kind: 'stop' },
      { session, turn, step: 1, signal, agent, stopHookActive: false, lastAssistantMessage: 'Sub done.' },
    )
    expect(stop).toMatchObject({
      kind: 'continue',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: `<hook_prompt hook_run_id="subagent-stop:1:${h.codexHome}/hooks.json">finish the child task</hook_prompt>`,
            },
          ],
        },
      ],
    })
    const start = JSON.parse(h.calls('SubagentStart')[0]!.stdin)
    expect(start).toMatchObject({ hook_event_name: 'SubagentStart', agent_id: 'agent-1', agent_type: 'default', turn_id: 'turn-1' })
    expect(Object.keys(start).slice(-2)).toEqual(['agent_id', 'agent_type'])
    const subStop = JSON.parse(h.calls('SubagentStop')[0]!.stdin)
    expect(subStop).toMatchObject({ stop_hook_active: false, agent_id: 'agent-1', last_assistant_message: 'Sub done.' })
    await session.run('go')
    expect(h.model.requests[0]!.messages[0]).toMatchObject({ role: 'developer', content: [{ type: 'text', text: 'child context' }] })
    expect(hookRuns(session.transcriptPath).find((run) => run.event === 'SubagentStart')).toMatchObject({ scope: 'thread' })
  })
})
