import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, project, readEvents } from './support.js'

const script = `steps:
  - tool_calls:
      - name: Agent
        input: { description: sub job, prompt: count the files, run_in_background: false }
  - text: three files
  - text: the subagent found three files
`

const record = (event: string) => ({ hooks: [{ type: 'command', command: `cat > "$CLAUDE_PROJECT_DIR/${event}.json"` }] })

describe('harness run: the default harness has subagents', () => {
  it("the model's Agent call runs a subagent, and the user's Claude Code SubagentStart/SubagentStop hooks get their payloads", async () => {
    const settings = { hooks: { SubagentStart: [record('SubagentStart')], SubagentStop: [record('SubagentStop')] } }
    const cwd = project({ 'script.yaml': script, '.claude/settings.json': JSON.stringify(settings) })
    const result = await harness(['run', 'count the files with a subagent', '--model', 'scripted:script.yaml'], { cwd })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('the subagent found three files')
    const start = JSON.parse(readFileSync(join(cwd, 'SubagentStart.json'), 'utf8'))
    const stop = JSON.parse(readFileSync(join(cwd, 'SubagentStop.json'), 'utf8'))
    expect(start).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'general-purpose' })
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop', agent_id: start.agent_id, last_assistant_message: 'three files' })
    expect(stop.session_id).toBe(start.session_id)
    // The subagent's log is its own, linked from the main session's.
    const main = readEvents(join(cwd, '.harness', 'sessions', `${start.session_id}.jsonl`))
    const link = main.find((event) => event.type === 'subagent/start')
    expect(link).toMatchObject({ agentId: start.agent_id, agentType: 'general-purpose', transcriptPath: stop.agent_transcript_path })
    expect(readFileSync(stop.agent_transcript_path, 'utf8')).toContain('three files')
  })
})
