import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxPolicy } from '../../src/guardrails/types.js'
import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '../../src/process-runner.js'
import { bwrapSandbox } from '../../src/sandbox/bwrap-sandbox.js'
import { processesNamed } from '../support/marked-processes.js'
import { launcherFallbacks, processRunners, testLauncher } from '../support/process-runners.js'
import { waitUntil } from '../support/waits.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-sandbox-processes-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const workspaceWrite: SandboxPolicy = {
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess: false,
  excludeSlashTmp: false,
  excludeTmpdirEnvVar: false,
}
const sandbox = bwrapSandbox()
// The sandbox wraps either runner: each block runs with both (`inner` is the block's).
const runners = processRunners()
let inner: ProcessRunner = runners[0]!.runner
afterAll(() => {
  testLauncher.close()
  expect(launcherFallbacks).toEqual([])
})

function run(policy: SandboxPolicy, cwd: string, options: Omit<ProcessRunOptions, 'cwd'>): Promise<ProcessRunResult> {
  return sandbox.runner({ policy, cwd, inner }).run({ shell: '/bin/bash', cwd, ...options })
}

/** Polls /proc (the test's timeout bounds it) until `count` processes named `marker…` run. */
async function untilRunning(marker: string, count: number, done: Promise<unknown>): Promise<void> {
  let finished = false
  void done.then(() => (finished = true))
  while (processesNamed(marker).length < count) {
    if (finished) throw new Error(`the run ended before ${count} processes named ${marker} were seen`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const marker = () => `hk-sandbox-${process.pid}-${randomUUID().slice(0, 8)}`

/**
 * A double-forked child (setsid, out of the run's process group) that writes its pid (as its own pid namespace sees
 * it) to `started`, then waits for a file `go` that the test creates only once the run has resolved, then writes
 * `late`. The command returns once the child started.
 */
const backgroundChild = (name: string) =>
  `setsid bash -c 'exec -a ${name} bash -c "echo \\$\\$ > started.tmp; mv started.tmp started; until [ -e go ]; do sleep 0.02; done; : > late"' > /dev/null 2>&1 < /dev/null &
  until [ -e started ]; do sleep 0.01; done`

describe.skipIf(process.platform !== 'linux').each(runners)('$name: processes started in the sandbox', ({ runner }) => {
  beforeAll(() => {
    inner = runner
  })

  it('end with the command, a double-forked background child included', async () => {
    const cwd = mkdtempSync(join(base, 'setsid-'))
    const name = marker()
    const result = await run(workspaceWrite, cwd, { command: backgroundChild(name) })
    expect(result.exitCode).toBe(0)
    expect(existsSync(join(cwd, 'started'))).toBe(true)
    expect(processesNamed(name)).toEqual([])
    // No process is left to see `go` and write `late`.
    writeFileSync(join(cwd, 'go'), '')
    expect(existsSync(join(cwd, 'late'))).toBe(false)
  })

  it('(the same child outlives an unsandboxed run, so the check above would see it)', async () => {
    const cwd = mkdtempSync(join(base, 'setsid-unsandboxed-'))
    const name = marker()
    await run({ type: 'dangerFullAccess' }, cwd, { command: backgroundChild(name) })
    // By its pid, not by counting names: the child's own forks (for `sleep`) carry its name until they exec.
    const child = Number(readFileSync(join(cwd, 'started'), 'utf8'))
    try {
      expect(processesNamed(name)).toContain(child)
    } finally {
      writeFileSync(join(cwd, 'go'), '')
    }
    await waitUntil(() => existsSync(join(cwd, 'late')), 'the child to write late')
    await waitUntil(() => processesNamed(name).length === 0, 'the child to exit')
  })

  const holdingCommand = (name: string) =>
    `(exec -a ${name}-background sleep 300) & setsid bash -c 'exec -a ${name}-session sleep 300' & exec -a ${name}-leader sleep 300`

  it('end when the run times out', async () => {
    const cwd = mkdtempSync(join(base, 'timeout-'))
    const name = marker()
    const result = run(workspaceWrite, cwd, { command: holdingCommand(name), timeoutMs: 1500 })
    await untilRunning(name, 3, result)
    expect(await result).toMatchObject({ timedOut: true })
    expect(processesNamed(name)).toEqual([])
  })

  it('end when the run is aborted', async () => {
    const cwd = mkdtempSync(join(base, 'abort-'))
    const name = marker()
    const controller = new AbortController()
    const result = run(workspaceWrite, cwd, { command: holdingCommand(name), signal: controller.signal })
    await untilRunning(name, 3, result)
    controller.abort()
    expect(await result).toMatchObject({ aborted: true })
    expect(processesNamed(name)).toEqual([])
  })

  // A zombie of bubblewrap's left in the group (its init, reparented to a host init that reaps slowly) made the runner
  // scan /proc after every sandboxed run; with the command as the namespace's init there is none.
  it("leave nothing in the runner's process group once the run resolves, not even a zombie", async () => {
    const cwd = mkdtempSync(join(base, 'empty-group-'))
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await run(workspaceWrite, cwd, { command: 'true' })
      expect(result.exitCode).toBe(0)
      expect(() => process.kill(-result.pid!, 0)).toThrow()
    }
  })

  // Found through the App Server: a kill that came while bubblewrap was still setting up (before --die-with-parent
  // held) left bubblewrap and the command running, once bubblewrap took the command out of the runner's group.
  it('end when the run is aborted while bubblewrap is still starting', async () => {
    const cwd = mkdtempSync(join(base, 'early-abort-'))
    const name = marker()
    for (let attempt = 0; attempt < 20; attempt++) {
      const controller = new AbortController()
      const result = await run(workspaceWrite, cwd, {
        command: `exec -a ${name} sleep 30`,
        signal: controller.signal,
        onStart: () => controller.abort(),
      })
      expect(result.aborted).toBe(true)
    }
    expect(processesNamed(name)).toEqual([])
    expect(processesNamed('bwrap').filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name))).toEqual([])
  })
})

describe.skipIf(process.platform !== 'linux').each(runners)('$name: the network in the sandbox', ({ runner }) => {
  beforeAll(() => {
    inner = runner
  })

  let server: Server
  let port: number
  let connections = 0
  beforeAll(async () => {
    server = createServer((_request, response) => response.end('reached'))
    server.on('connection', () => connections++)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const request = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`

  it('is off, loopback included, unless the policy allows it', async () => {
    const cwd = mkdtempSync(join(base, 'network-'))
    for (const policy of [workspaceWrite, { type: 'readOnly', networkAccess: false } as const]) {
      const result = await run(policy, cwd, { command: request() })
      expect(result.exitCode).not.toBe(0)
      expect(result.stderr).toMatch(/Connection refused|Network is unreachable/)
    }
    expect(connections).toBe(0)
    for (const policy of [{ ...workspaceWrite, networkAccess: true }, { type: 'readOnly', networkAccess: true } as const]) {
      const result = await run(policy, cwd, { command: request() })
      expect(result.stdout).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*reached$/)
    }
    expect(connections).toBe(2)
  })
})
