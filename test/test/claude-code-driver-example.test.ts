import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const main = fileURLToPath(new URL('../../examples/claude-code-driver/dist/main.js', import.meta.url))

it('the Claude Code driver example steers a parked tool call inside the real Claude Code: recorded, folded in the same turn', {
  timeout: 120_000,
}, async () => {
  // execFile rejects on a non-zero exit code, so resolving means exit 0.
  const { stdout } = await promisify(execFile)(process.execPath, [main], { timeout: 100_000 })
  const lineOf = (text: string) => {
    const index = stdout.indexOf(text)
    expect(index, text).toBeGreaterThan(0)
    return index
  }
  const turn1 = lineOf('── turn 1 ──')
  const ask = lineOf('⇒ tool_use mcp__host__shell {"command":"sleep 1; echo build ok"}')
  const guard = lineOf('⚙ tools/pre-execute (shell-guard) step 1: shell {"command":"sleep 1; echo build ok"} → allow')
  const steer = lineOf(`⇢ session.steer("Also write one line of release notes.") while the command runs`)
  const result = lineOf('tool/result (step 1) ✓ build ok')
  // The next model request carries the tool result, then the steer, as Claude Code words it.
  const folded = lineOf('new since the last answer: tool_result "build ok" → user text "The user sent a new message while you were working')
  const steered = lineOf('user (steered via in-process): Also write one line of release notes.')
  const accepted = lineOf('⇢ steering/accepted at the tool boundary of step 1: 1 recorded, 0 dropped')
  const end1 = lineOf('── turn 1 completed')
  const turn2 = lineOf('── turn 2 ──')
  const denied = lineOf('⚙ tools/pre-execute (shell-guard) step 1: shell {"command":"git push --force origin main"} → deny')
  const end2 = lineOf('── turn 2 completed')
  const order = [turn1, ask, guard, steer, result, folded, steered, accepted, end1, turn2, denied, end2]
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  // One turn for the prompt and the steer: the steer did not start a turn of its own.
  expect(stdout.match(/── turn \d+ ──/g)).toHaveLength(2)
  expect(stdout).toMatch(/receipt queued\n/)
  expect(stdout).toMatch(/steer receipt: \{"state":"recorded","itemIds":\["[^"]+"\]\} \(state\(\) = recorded\)/)

  expect(stdout).toContain('✓ steer recorded: the receipt of session.steer() resolved "recorded"')
  expect(stdout).toMatch(/✓ folded after the tool result: model request #\d+ carries the tool_result of toolu_fake_\d+, then the steer/)
  expect(stdout).toMatch(/✓ one turn, one result: turn 1 made 2 model requests and one session.run\(\) result \(completed\)/)
  expect(stdout).toContain("✓ in the same turn: the steer's message and its steering/accepted (tool boundary) are in turn 1's log")
  expect(stdout).toContain("✓ the policy held: turn 2's `git push --force origin main` was denied at tools/pre-execute before it ran")
  expect(stdout).not.toMatch(/^✗/m)
  expect(stdout).toContain('fake Messages API closed')
  expect(stdout).toContain('✓ one steered turn inside the real Claude Code, as described')

  // Its temporary directory (workspace, session log, Claude Code's HOME and config dir) is gone.
  const root = /removed (\S+) \(run with --keep/.exec(stdout)?.[1]
  expect(root).toBeDefined()
  expect(existsSync(root!)).toBe(false)
})
