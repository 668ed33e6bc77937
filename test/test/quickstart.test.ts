import { execFile } from 'node:child_process'
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
})
