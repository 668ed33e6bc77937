import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  type ApprovalDecision,
  type ApprovalRequest,
  definePlugin,
  type GuardrailsPluginOptions,
  guardrails,
  type Plugin,
  type SessionEvent,
} from '@harness-kernel/kernel'
import type { ScriptStep } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { afterAll } from 'vitest'
import { harness, readEvents } from '../helpers.js'

const outsideDirs: string[] = []
afterAll(() => {
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * A directory outside every writable root of the default policy (not under the session's cwd, /tmp or $TMPDIR),
 * removed after the test file.
 */
export function outsideDir(): string {
  const dir = mkdtempSync(join('/var/tmp', 'hk-outside-'))
  outsideDirs.push(dir)
  return dir
}

/** An approver that answers from a list (then `deny`) and keeps every request it was asked. */
export function recordingApprover(answers: ApprovalDecision[] = []): { plugin: Plugin; requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = []
  const plugin = definePlugin({
    name: 'test-approver',
    setup(kernel) {
      kernel.provide('approvals', {
        async request(request: ApprovalRequest) {
          requests.push(request)
          return answers.shift() ?? { kind: 'deny', reason: 'rejected by user' }
        },
      })
    },
  })
  return { plugin, requests }
}

/** One shell call per command, each its own step, then `done`. */
export function shellSteps(...inputs: Record<string, unknown>[]): ScriptStep[] {
  return [...inputs.map((input) => ({ tool_calls: [{ name: 'shell', input }] })), { text: 'done' }]
}

/** Runs one turn of `script` under `policy` with the tools and `extra` plugins; answers the tool results in order. */
export async function runGuarded(script: ScriptStep[], policy: GuardrailsPluginOptions, extra: Plugin[] = []) {
  const { kernel, dir } = harness(script, [tools(), guardrails(policy), ...extra])
  const session = await kernel.startSession()
  try {
    const turn = await session.run('go')
    const events = readEvents(session.transcriptPath)
    const results = events.filter((event): event is Extract<SessionEvent, { type: 'tool/result' }> => event.type === 'tool/result')
    return { dir, turn, results: results.map((result) => result.output), events }
  } finally {
    await session.end()
    await kernel.dispose()
  }
}

export { existsSync }
