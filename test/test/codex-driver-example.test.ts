import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const main = fileURLToPath(new URL('../../examples/codex-driver/dist/main.js', import.meta.url))

it('the Codex driver example steers a running tool call inside the real Codex: recorded, folded in the same turn', {
  timeout: 120_000,
}, async () => {
  // execFile rejects on a non-zero exit code, so resolving means exit 0.
  const { stdout } = await promisify(execFile)(process.execPath, [main], { timeout: 100_000 })
  const lineOf = (text: string | RegExp) => {
    const index = typeof text === 'string' ? stdout.indexOf(text) : stdout.search(text)
    expect(index, String(text)).toBeGreaterThan(0)
    return index
  }
  const turn1 = lineOf('── turn 1 ──')
  const thread = lineOf("ⓘ driver/session: Codex's own thread id is ")
  const ask = lineOf('⇒ function_call shell {"command":"sleep 1; echo build ok"}')
  // Steps are the driver's to count (a Codex step starts with each model response): only the order is asserted.
  const guard = lineOf(/⚙ tools\/pre-execute \(shell-guard\) step \d+: shell \{"command":"sleep 1; echo build ok"\} → allow/)
  const steer = lineOf(`⇢ session.steer("Also write one line of release notes.") while the command runs`)
  const result = lineOf(/tool\/result \(step \d+\) ✓ build ok/)
  const steered = lineOf('user (steered via in-process): Also write one line of release notes.')
  const accepted = lineOf(/⇢ steering\/accepted at the tool boundary of step \d+: 1 recorded, 0 dropped/)
  // The next model request's new input is the tool's output, then the steer: Codex folded it into the same turn.
  const folded = lineOf(
    'new since the model last spoke: function_call_output "build ok" → user message "Also write one line of release notes."',
  )
  const end1 = lineOf('── turn 1 completed')
  const turn2 = lineOf('── turn 2 ──')
  const denied = lineOf(/⚙ tools\/pre-execute \(shell-guard\) step \d+: shell \{"command":"git push --force origin main"\} → deny/)
  const deniedResult = lineOf(/tool\/result \(step \d+\) ✗ Denied by shell-guard: force pushes are not allowed\./)
  const sawDenial = lineOf('new since the model last spoke: function_call_output "Denied by shell-guard')
  const end2 = lineOf('── turn 2 completed')
  const order = [turn1, thread, ask, guard, steer, result, steered, accepted, end1, turn2, denied, deniedResult, sawDenial, end2]
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  // The request and the steer's receipt reach the example on two channels (HTTP, Codex's notifications): only their
  // places against the tool result and the turn's end are fixed.
  expect(result).toBeLessThan(folded)
  expect(folded).toBeLessThan(end1)
  // One turn for the prompt and the steer: the steer did not start a turn of its own.
  expect(stdout.match(/── turn \d+ ──/g)).toHaveLength(2)
  expect(stdout).toMatch(/receipt queued\n/)
  expect(stdout).toMatch(/steer receipt: \{"state":"recorded","itemIds":\["[^"]+"\]\} \(state\(\) = recorded\)/)

  expect(stdout).toMatch(/✓ the tool call: Codex offered the kernel's shell as a dynamic tool, its model called it/)
  expect(stdout).toContain('✓ steer recorded: the receipt of session.steer() resolved "recorded"')
  expect(stdout).toMatch(
    /✓ folded after the tool result: model request #\d+'s new input is the function_call_output of call_fake_\d+, then the steer/,
  )
  expect(stdout).toMatch(/✓ one turn, one result: turn 1 made 2 model requests and one session.run\(\) result \(completed\)/)
  expect(stdout).toContain("✓ in the same turn: the steer's message and its steering/accepted (tool boundary) are in turn 1's log")
  expect(stdout).toContain("✓ the policy held: turn 2's `git push --force origin main` was denied at tools/pre-execute before it ran")
  expect(stdout).toMatch(/✓ the model saw the denial: Codex's rollout has call_fake_\d+ as a DynamicToolCall with success false \(failed\)/)
  expect(stdout).not.toMatch(/^✗/m)
  expect(stdout).toContain('fake Responses API closed')
  expect(stdout).toContain('✓ one steered turn inside the real Codex, as described')

  // Its temporary directory (workspace, session log, Codex's HOME and CODEX_HOME) is gone.
  const root = /removed (\S+) \(run with --keep/.exec(stdout)?.[1]
  expect(root).toBeDefined()
  expect(existsSync(root!)).toBe(false)
})
