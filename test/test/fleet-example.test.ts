import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const main = fileURLToPath(new URL('../../examples/fleet/dist/main.js', import.meta.url))

it('the fleet example: a turn on server-a is steered and followed from server-b, the steer recorded once; bob’s turn asks bob', async () => {
  // execFile rejects on a non-zero exit code, so resolving means exit 0.
  const { stdout } = await promisify(execFile)(process.execPath, [main], { timeout: 60_000 })
  const lines = stdout.split('\n')
  expect(stdout).toContain('bob ⇠ thread/resume: status active')
  // Sent twice (a retry), recorded once: each client sees it once.
  expect(lines.filter((line) => line === '  alice@a ⇠ userMessage: Also write one line of release notes.')).toHaveLength(1)
  expect(lines.filter((line) => line === '  bob@b ⇠ userMessage: Also write one line of release notes.')).toHaveLength(1)
  expect(lines).toContain('  bob@b ⇠ turn/completed completed')
  expect(lines).toContain('completed: Done, and here is the one line of release notes you asked for.')
  // bob's turn, through server-b, runs on server-a: its approval is relayed to bob, alice is not asked.
  expect(lines.filter((line) => line.startsWith('  bob ⇠ approval request (relayed from server-a):'))).toHaveLength(1)
  expect(stdout).not.toContain('alice ⇠ approval request')
  expect(lines.at(-2)).toBe('completed: test-report.txt says "all tests pass"')
})
