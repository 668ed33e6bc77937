import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { codexSchemaErrors } from '../../transports/app-server/test/support/codex-schema.js'

const main = fileURLToPath(new URL('../../examples/app-server-host/dist/main.js', import.meta.url))

it('the app-server host example steers a running turn and answers host input; every host item is recorded once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'app-server-host-wire-'))
  const wire = join(dir, 'wire.jsonl')
  // execFile rejects on a non-zero exit code, so resolving means exit 0.
  const { stdout } = await promisify(execFile)(process.execPath, [main, '--wire', wire], { timeout: 30_000 })
  const lineOf = (text: string) => {
    const index = stdout.indexOf(text)
    expect(index, text).toBeGreaterThan(0)
    return index
  }
  lineOf('hostInput negotiated: {"version":1,"boundaries":["sampling","final"]')
  const started = lineOf('← turn/started turn 1')
  const command = lineOf('← item/started commandExecution in turn 1: $ sleep 0.3 && echo built')
  const steer = lineOf('→ turn/steer (expectedTurnId = turn 1) [clientId host-steer]')
  const output = lineOf('← item/completed commandExecution in turn 1 (completed): built')
  const sampling = lineOf('⇠ turn/hostInput/request #0: sampling boundary, step 1 of turn 1')
  const steered = lineOf('← item/completed userMessage in turn 1 [clientId host-steer]: Also write one line of release notes.')
  const samplingItem = lineOf('← item/completed hostInputMessage in turn 1 (role user, authority user) [clientId host-sampling]')
  const samplingAccepted = lineOf('← turn/hostInput/accepted request #0 in turn 1: item 0 recorded')
  const final = lineOf('⇠ turn/hostInput/request #1: final boundary, step 1 of turn 1')
  const finalItem = lineOf('← item/completed hostInputMessage in turn 1 (role user, authority host) [clientId host-final]')
  const continued = lineOf('← item/completed agentMessage in turn 1: Checked: the workspace is clean.')
  const empty = lineOf('← turn/hostInput/accepted request #2 in turn 1: no items')
  const completed = lineOf('← turn/completed turn 1: completed')
  const order = [
    started,
    command,
    steer,
    output,
    sampling,
    steered,
    samplingItem,
    samplingAccepted,
    final,
    finalItem,
    continued,
    empty,
    completed,
  ]
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  expect(stdout.match(/← turn\/started/g)).toHaveLength(1)

  expect(stdout).toContain('turn 1: completed; 1 turn/started; 3 turn/hostInput/request answered')
  for (const clientId of ['host-task', 'host-steer', 'host-sampling', 'host-final']) {
    expect(stdout).toMatch(new RegExp(`✓ ${clientId} via [^:]+: recorded once in turn 1\\n`))
  }
  expect(stdout).toContain('the steer was recorded in the same turn it steered')
  expect(stdout).toContain('the final-boundary item continued the same turn')
  expect(stdout).toContain('all 4 host items accounted for: 4 recorded exactly once, 0 reported back')
  expect(stdout).toContain('server exited with code 0')

  // Every message the server sent the host could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
  const received = readFileSync(wire, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { message: Record<string, unknown>; answering?: string })
  rmSync(dir, { recursive: true, force: true })
  expect(received.length).toBeGreaterThan(10)
  const failures = received.flatMap(({ message, answering }) =>
    codexSchemaErrors(message, answering).map((error) => `${String(message.method ?? answering)}: ${error}`),
  )
  expect(failures).toEqual([])
})
