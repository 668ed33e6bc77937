import { execFile } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const main = fileURLToPath(new URL('../../examples/quickstart/dist/main.js', import.meta.url))

it('the quickstart runs offline: a denied command, a recovery, a steer, Codex and Claude Code hooks, a finish', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [main], { timeout: 30_000 })
  const denied = stdout.indexOf('Denied by policy: rm -r outside the workspace is not allowed.')
  const steered = stdout.indexOf('user (steered via in-process): Also write a README.md')
  const finished = stdout.indexOf('turn status: completed')
  expect(denied).toBeGreaterThan(0)
  expect(steered).toBeGreaterThan(denied)
  expect(finished).toBeGreaterThan(steered)
  expect(stdout).toContain('steering receipt: {"state":"recorded"')
  // Codex hooks from examples/quickstart/codex-home: a PostToolUse context, a PreToolUse deny, a Stop continuation.
  expect(stdout).toContain('trusted 3 Codex hooks')
  expect(stdout).toContain('developer (from codex-hooks): build/ now holds: hello.txt')
  // The guardrails ask before a forced rm (Codex's on-request default); the example's approver says yes.
  expect(stdout).toMatch(/\? approval asked for shell: rm -rf build && .* \(inside the sandbox\): the user says yes/)
  expect(stdout).toContain(
    'result: Command blocked by PreToolUse hook: piping a download into a shell is not allowed in this project. Command: curl',
  )
  expect(stdout).toMatch(
    /user \(from codex-hooks\): <hook_prompt hook_run_id="stop:2:[^"]+hooks\.json">Before finishing, check that build\/README\.md exists\.<\/hook_prompt>/,
  )
  // A Claude Code PostToolUse hook from examples/quickstart/claude/settings.json, on the kernel's write_file (Claude's Write).
  expect(stdout).toContain(
    'developer (from claude-code-hooks): PostToolUse:Write hook additional context: build/README.md has 2 non-empty lines',
  )
  expect(stdout).toContain('turn status: completed; last answer: Verified. Done.')
  expect(stdout).toContain('`hello.txt` is a greeting written by the quickstart harness.')

  // At the end: where the run left its temporary files, each of them there.
  const workspace = /^workspace: (.+)$/m.exec(stdout)?.[1]
  expect(workspace).toBeDefined()
  try {
    const end = stdout.slice(stdout.lastIndexOf('\nleft in '))
    const sessionLog = /^ {2}session log {2}(\S+\.jsonl)$/m.exec(end)?.[1]
    const sessionId = sessionLog?.slice(sessionLog.lastIndexOf('/') + 1, -'.jsonl'.length)
    expect(end.split('\n').slice(1, 7)).toEqual([
      `left in ${workspace} (temporary: remove it with rm -r ${workspace}):`,
      `  workspace    ${workspace} (build/hello.txt, build/README.md)`,
      `  session log  ${join(workspace!, '.harness/sessions', `${sessionId}.jsonl`)}`,
      `               read it with: npx harness sessions show ${sessionId} --cwd ${workspace}`,
      `  trust store  ${join(workspace!, '.trust/codex.json')} (the Codex hooks trusted above)`,
      '',
    ])
    for (const file of [sessionLog!, join(workspace!, 'build/hello.txt'), join(workspace!, '.trust/codex.json')]) {
      expect(existsSync(file)).toBe(true)
    }
  } finally {
    if (workspace) rmSync(workspace, { recursive: true, force: true })
  }
})
