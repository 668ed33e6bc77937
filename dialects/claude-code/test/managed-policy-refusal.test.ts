import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claudeHarnessPerTest, recordEvents } from './claude-harness.js'

const harness = claudeHarnessPerTest()

/** A managed-settings.json that is not JSON (it would have said allowManagedHooksOnly). */
function brokenManagedFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hk-managed-')), 'managed-settings.json')
  writeFileSync(path, '{ "allowManagedHooksOnly": true, ')
  return path
}

describe('an unusable managed settings file, in a session', () => {
  it('refuses every turn by default, as Claude Code refuses to start: no model call, no hook, an error naming the file', async () => {
    const managedSettingsPath = brokenManagedFile()
    const h = harness({ script: [{ text: 'never sent' }], hooks: recordEvents(['UserPromptSubmit']), options: { managedSettingsPath } })
    const session = await h.kernel.startSession()
    const first = await session.run('go')
    expect(first.status).toBe('halted')
    expect(first.reason).toMatch(
      new RegExp(`^managed settings ${managedSettingsPath} cannot be used \\(.*\\); none of its settings are in effect`),
    )
    const second = await session.run('again')
    expect(second.status).toBe('halted')
    expect(h.requests()).toEqual([])
    expect(h.calls()).toEqual([])
  })

  it('with managedPolicyFailure: managed-hooks-only, turns run with no hook but the usable managed ones', async () => {
    const managedSettingsPath = brokenManagedFile()
    const h = harness({
      script: [{ text: 'ok' }],
      hooks: recordEvents(['UserPromptSubmit']),
      options: { managedSettingsPath, managedPolicyFailure: 'managed-hooks-only' },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(h.calls()).toEqual([])
  })
})
