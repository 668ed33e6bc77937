import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ExecProcessRunner, LauncherProcessRunner } from '@harness-kernel/kernel'
import { expect, it } from 'vitest'
import { execCodexEvent, loadCodexHooks } from '../src/index.js'

it.each([
  { name: 'ExecProcessRunner', runner: new ExecProcessRunner() },
  { name: 'LauncherProcessRunner', runner: new LauncherProcessRunner() },
])('$name: execCodexEvent runs one event’s matching handlers on the given bytes and merges them', async ({ runner }) => {
  const codexHome = mkdtempSync(join(tmpdir(), 'hk-exec-'))
  const hook = (command: string) => ({ hooks: [{ type: 'command', command }] })
  writeFileSync(
    join(codexHome, 'hooks.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', ...hook('cat > "$0.stdin"; echo "no rm" >&2; exit 2') },
          { matcher: 'Edit', ...hook('exit 2') },
        ],
        Stop: [hook('echo \'{"decision":"block","reason":"more"}\'')],
      },
    }),
  )
  const loaded = loadCodexHooks({ cwd: codexHome, codexHome })
  const payload = JSON.stringify({
    cwd: codexHome,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf x' },
    tool_use_id: 'call_9',
  })
  const pre = await execCodexEvent({ loaded, event: 'PreToolUse', payload, processRunner: runner, bypassTrust: true })
  expect(pre.subject).toBe('Bash')
  expect(pre.runs.map((run) => run.runId)).toEqual([`pre-tool-use:0:${codexHome}/hooks.json:call_9`])
  expect(pre.merged).toMatchObject({ family: 'preToolUse', blocked: true, reason: 'no rm' })

  const stop = await execCodexEvent({
    loaded,
    event: 'Stop',
    payload: JSON.stringify({ tool_use_id: 'call_9', cwd: codexHome }),
    processRunner: runner,
  })
  expect(stop.runs).toEqual([])
  const bypassed = await execCodexEvent({
    loaded,
    event: 'Stop',
    payload: JSON.stringify({ tool_use_id: 'call_9', cwd: codexHome }),
    processRunner: runner,
    bypassTrust: true,
  })
  expect(bypassed.runs.map((run) => run.runId)).toEqual([`stop:2:${codexHome}/hooks.json`])
  expect(bypassed.merged).toMatchObject({ family: 'stop', decision: { action: 'continue', fragments: [{ text: 'more' }] } })
})
