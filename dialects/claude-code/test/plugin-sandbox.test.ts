/**
 * Claude Code's `sandbox` settings on the kernel's shell tool: Bash runs confined as Claude Code 2.1.332 confines it
 * (observed with its own bubblewrap layout): writes only in the working directories and its temporary folder, its
 * settings read-only, the network only through a proxy that lets the allowed domains through. Real bubblewrap, real
 * files, a real HTTP server on loopback.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Message } from '@harness-kernel/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const outside = mkdtempSync('/var/tmp/hk-claude-sandbox-')
afterAll(() => rmSync(outside, { recursive: true, force: true }))

function toolOutputs(messages: readonly Message[]): string[] {
  return messages
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .flatMap((block) => (block.type === 'tool_result' ? [block.output] : []))
}

async function runOnce(h: ReturnType<typeof harness>) {
  const session = await h.kernel.startSession()
  const result = await session.run('go')
  await session.end()
  return toolOutputs(result.messages)
}

/** A request through the proxy the sandbox is given (HTTP_PROXY), with Node: no curl needed. */
const get = (url: string) =>
  `node -e 'const u=new URL(process.env.HTTP_PROXY);require("http").get({host:u.hostname,port:u.port,path:${JSON.stringify(url)}},(r)=>r.pipe(process.stdout)).on("error",(e)=>console.log("error",e.code))'`

const call = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  tool_calls: [{ id, name: 'shell', input: { command, ...extra } }],
})

describe.skipIf(process.platform !== 'linux')('sandbox.enabled', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer((_request, response) => response.end('hello from the host\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('writes in the project, not outside it nor in the project’s .claude, even under the kernel’s full access', async () => {
    const h = harness({
      script: [call('c1', `touch made && touch ${outside}/escaped; touch .claude/planted`), { text: 'done' }],
      settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true }, permissions: { defaultMode: 'default' } },
    })
    const [output] = await runOnce(h)
    expect(existsSync(join(h.project, 'made'))).toBe(true)
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
    expect(existsSync(join(h.project, '.claude', 'planted'))).toBe(false)
    expect(output).toContain('Read-only file system')
  })

  it('autoAllowBashIfSandboxed off (the default): the mode still asks', async () => {
    const h = harness({
      script: [bash('touch made'), { text: 'done' }],
      settings: { sandbox: { enabled: true }, permissions: { defaultMode: 'default' } },
    })
    const [output] = await runOnce(h)
    expect(output).toMatch(/^touch in '.*made' needs approval\./)
    expect(existsSync(join(h.project, 'made'))).toBe(false)
  })

  it('the network goes through the proxy: allowed domains reach the host, others get Claude Code’s refusal', async () => {
    const h = harness({
      script: [call('c1', get(`http://127.0.0.1:${port}/`)), call('c2', get('http://blocked.test/')), { text: 'done' }],
      settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true, network: { allowedDomains: ['127.0.0.1'] } } },
      options: { permissionMode: 'default' },
    })
    expect(await runOnce(h)).toEqual([
      'hello from the host',
      'Connection blocked by network allowlist\n<sandbox_violations>\ndeny network-outbound blocked.test:80 (user denied)\n</sandbox_violations>',
    ])
  })

  it('under bypassPermissions an unlisted host goes through; a denied domain (or a WebFetch deny) is refused as on the deny list', async () => {
    const h = harness({
      script: [call('c1', get(`http://127.0.0.1:${port}/`)), call('c2', get('http://denied.test/')), { text: 'done' }],
      settings: { sandbox: { enabled: true }, permissions: { deny: ['WebFetch(domain:denied.test)'] } },
      options: { permissionMode: 'bypassPermissions' },
    })
    expect(await runOnce(h)).toEqual([
      'hello from the host',
      'Connection blocked by network allowlist\n<sandbox_violations>\ndeny network-outbound denied.test:80 (host is on the deny list)\n</sandbox_violations>',
    ])
  })

  it('filesystem.denyRead hides a file; filesystem.allowWrite opens a folder', async () => {
    const extra = mkdtempSync('/var/tmp/hk-claude-sandbox-extra-')
    try {
      const h = harness({
        script: [call('c1', `cat secret.txt; touch ${extra}/opened`), { text: 'done' }],
        settings: {
          sandbox: { enabled: true, filesystem: { denyRead: ['./secret.txt'], allowWrite: [extra] } },
          permissions: { defaultMode: 'bypassPermissions' },
        },
        options: { permissionMode: 'bypassPermissions' },
      })
      writeFileSync(join(h.project, 'secret.txt'), 'TOP-SECRET\n')
      const [output] = await runOnce(h)
      expect(output).not.toContain('TOP-SECRET')
      expect(existsSync(join(extra, 'opened'))).toBe(true)
    } finally {
      rmSync(extra, { recursive: true, force: true })
    }
  })

  it('excludedCommands and an unsandboxed request run outside Claude Code’s sandbox; allowUnsandboxedCommands false keeps them in', async () => {
    const h = harness({
      script: [
        call('c1', `touch ${outside}/excluded`),
        call('c2', `mkdir ${outside}/asked`, { sandbox_permissions: 'require_escalated' }),
        { text: 'done' },
      ],
      settings: { sandbox: { enabled: true, excludedCommands: ['touch:*'] }, permissions: { defaultMode: 'bypassPermissions' } },
      options: { permissionMode: 'bypassPermissions' },
    })
    await runOnce(h)
    expect(existsSync(join(outside, 'excluded'))).toBe(true)
    expect(existsSync(join(outside, 'asked'))).toBe(true)
    // In any other mode the request to run outside is asked about (and refused here: no approver).
    const askedFor = harness({
      script: [call('c1', 'ls', { sandbox_permissions: 'require_escalated' }), { text: 'done' }],
      settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
      options: { permissionMode: 'default' },
    })
    expect(await runOnce(askedFor)).toEqual(['Run outside of the sandbox'])
    const kept = harness({
      script: [call('c1', `mkdir ${outside}/kept-in`, { sandbox_permissions: 'require_escalated' }), { text: 'done' }],
      settings: { sandbox: { enabled: true, allowUnsandboxedCommands: false }, permissions: { defaultMode: 'bypassPermissions' } },
      options: { permissionMode: 'bypassPermissions' },
    })
    const [output] = await runOnce(kept)
    expect(output).toContain('Read-only file system')
    expect(existsSync(join(outside, 'kept-in'))).toBe(false)
  })
})
