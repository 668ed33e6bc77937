import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const main = fileURLToPath(new URL('../../examples/quickstart/dist/main.js', import.meta.url))

it('the quickstart runs offline: a denied command, a recovery, a steer, a finish', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [main], { timeout: 30_000 })
  const denied = stdout.indexOf('Denied by policy: rm -r outside the workspace is not allowed.')
  const steered = stdout.indexOf('user (steered via in-process): Also write a README.md')
  const finished = stdout.indexOf('turn status: completed')
  expect(denied).toBeGreaterThan(0)
  expect(steered).toBeGreaterThan(denied)
  expect(finished).toBeGreaterThan(steered)
  expect(stdout).toContain('steering receipt: {"state":"recorded"')
  expect(stdout).toContain('`hello.txt` is a greeting written by the quickstart harness.')
})
