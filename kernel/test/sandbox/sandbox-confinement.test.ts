/**
 * A confinement (another program's sandbox settings, Claude Code's) on top of the guardrails' policy: it only narrows
 * what a command may write, read and reach, and a command with it runs sandboxed even under full access. Real
 * bubblewrap, real files, a real proxy and HTTP server on loopback.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxConfinement, SandboxPolicy } from '../../src/guardrails/types.js'
import type { ProcessRunner, ProcessRunResult } from '../../src/process-runner.js'
import { bwrapSandbox } from '../../src/sandbox/bwrap-sandbox.js'
import { type FilteringProxy, NETWORK_BLOCKED, startFilteringProxy } from '../../src/sandbox/filtering-proxy.js'
import { launcherFallbacks, processRunners, testLauncher } from '../support/process-runners.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-confine-')))
const outside = realpathSync(mkdtempSync('/var/tmp/hk-confine-outside-'))
afterAll(() => {
  for (const dir of [base, outside]) rmSync(dir, { recursive: true, force: true })
})
const cwd = join(base, 'project')
for (const dir of [join(cwd, 'sub'), join(cwd, 'protected'), join(cwd, 'hidden')]) mkdirSync(dir, { recursive: true })
writeFileSync(join(cwd, 'hidden', 'key'), 'SECRET-IN-DIR\n')
writeFileSync(join(cwd, '.env'), 'SECRET-FILE\n')

const danger: SandboxPolicy = { type: 'dangerFullAccess' }
const workspace = (networkAccess = false): SandboxPolicy => ({
  type: 'workspaceWrite',
  writableRoots: [outside],
  networkAccess,
  excludeSlashTmp: true,
  excludeTmpdirEnvVar: true,
})
const confine = (fields: Partial<SandboxConfinement> = {}): SandboxConfinement => ({
  writableRoots: [cwd],
  denyWrite: [],
  denyRead: [],
  ...fields,
})

const sandbox = bwrapSandbox({ env: { PATH: process.env.PATH } })
// The sandbox wraps either runner: each block runs with both (`inner` is the block's).
const runners = processRunners()
let inner: ProcessRunner = runners[0]!.runner
afterAll(() => {
  testLauncher.close()
  expect(launcherFallbacks).toEqual([])
})
function bash(policy: SandboxPolicy, confinement: SandboxConfinement, command: string): Promise<ProcessRunResult> {
  return sandbox.runner({ policy, cwd, inner, confinement }).run({ command, shell: '/bin/bash', cwd })
}

describe.skipIf(process.platform !== 'linux').each(runners)('$name: a confinement on top of the policy', ({ runner }) => {
  beforeAll(() => {
    inner = runner
  })

  it('under full access, a confined command still runs sandboxed: it writes only under the confinement’s roots', async () => {
    const result = await bash(danger, confine(), `touch made-in && touch ${outside}/escaped`)
    expect(existsSync(join(cwd, 'made-in'))).toBe(true)
    expect(result.stderr).toContain('Read-only file system')
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
  })

  it('under workspace-write, only where both allow: the policy’s roots inside the confinement’s', async () => {
    const result = await bash(workspace(), confine({ writableRoots: [join(cwd, 'sub'), outside] }), 'touch sub/ok && touch top')
    expect(existsSync(join(cwd, 'sub', 'ok'))).toBe(true)
    expect(result.stderr).toContain('Read-only file system')
    expect(existsSync(join(cwd, 'top'))).toBe(false)
  })

  it('denyWrite stays read-only under a writable root; denyRead hides a file and a folder', async () => {
    const denied = await bash(danger, confine({ denyWrite: [join(cwd, 'protected')] }), 'touch protected/f')
    expect(denied.stderr).toContain('Read-only file system')
    expect(existsSync(join(cwd, 'protected', 'f'))).toBe(false)
    const hidden = await bash(
      danger,
      confine({ denyRead: [join(cwd, '.env'), join(cwd, 'hidden')] }),
      'cat .env; ls hidden; cat hidden/key',
    )
    expect(hidden.stdout).not.toContain('SECRET')
    expect(hidden.stderr).toContain('.env: Permission denied')
    expect(hidden.stderr).toContain("cannot open directory 'hidden': Permission denied")
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('SECRET-FILE\n')
  })

  describe('the network', () => {
    let server: Server
    let port: number
    let proxy: FilteringProxy
    beforeAll(async () => {
      server = createServer((_request, response) => response.end('hello from the host\n'))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
      port = (server.address() as AddressInfo).port
      proxy = await startFilteringProxy({ allows: (host) => host === 'allowed.test' || host === '127.0.0.1' })
    })
    afterAll(async () => {
      await proxy.close()
      await new Promise((resolve) => server.close(resolve))
    })

    /** A request through the proxy the sandbox is given (HTTP_PROXY), with Node: no curl needed. */
    const fetchVia = (url: string) =>
      `node -e 'const u=new URL(process.env.HTTP_PROXY);require("http").get({host:u.hostname,port:u.port,path:${JSON.stringify(url)}},(r)=>{r.pipe(process.stdout);r.on("end",()=>console.log("status",r.statusCode))}).on("error",(e)=>console.log("error",e.code))'`

    it('goes through the proxy, which lets allowed hosts through and blocks the rest in sandbox-runtime’s words', async () => {
      const allowed = await bash(danger, confine({ proxy: { socketPath: proxy.socketPath } }), fetchVia(`http://127.0.0.1:${port}/`))
      expect(allowed.stdout).toBe('hello from the host\nstatus 200\n')
      const blocked = await bash(danger, confine({ proxy: { socketPath: proxy.socketPath } }), fetchVia('http://blocked.test/'))
      expect(blocked.stdout).toBe(`${NETWORK_BLOCKED}\nstatus 403\n`)
    })

    it('there is no network around the proxy, and none at all where the policy has it off', async () => {
      const direct = `node -e 'require("http").get("http://127.0.0.1:${port}/",()=>console.log("reached")).on("error",(e)=>console.log("error",e.code))'`
      const around = await bash(danger, confine({ proxy: { socketPath: proxy.socketPath } }), direct)
      expect(around.stdout).toBe('error ECONNREFUSED\n')
      // The policy has the network off: the proxy is not offered, whatever the confinement says.
      const off = await bash(workspace(false), confine({ proxy: { socketPath: proxy.socketPath } }), 'echo "proxy=[$HTTP_PROXY]"')
      expect(off.stdout).not.toContain('127.0.0.1:3128')
      expect(off.stdout).toMatch(/^proxy=\[/)
    })

    it('the command’s exit code and output pass through the relay', async () => {
      const result = await bash(danger, confine({ proxy: { socketPath: proxy.socketPath } }), 'echo out; echo err >&2; exit 7')
      expect(result).toMatchObject({ stdout: 'out\n', stderr: 'err\n', exitCode: 7 })
    })
  })
})
