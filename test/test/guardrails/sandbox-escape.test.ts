import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processesNamed } from '../../../kernel/test/support/marked-processes.js'
import { outsideDir, runGuarded, shellSteps } from './guardrails-harness.js'

// Every way out of the workspace a model might try, under Codex's default sandbox (workspace-write, network off).
// Each one fails, and nothing the sandbox refused leaves a file behind. Approvals are `never`, so nothing is asked.
describe('escape battery (workspace-write)', () => {
  let server: Server
  let port: number
  let hits = 0
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits++
      response.end('reached')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const attempts: [string, (outside: string) => string][] = [
    ['redirection', (outside) => `echo x > ${outside}/escaped`],
    ['cp', (outside) => `echo x > seed && cp seed ${outside}/escaped`],
    ['mv', (outside) => `echo x > seed && mv seed ${outside}/escaped`],
    ['ln -s, then a write through the link', (outside) => `ln -s ${outside} out && echo x > out/escaped`],
    ['/proc/self/root', (outside) => `echo x > /proc/self/root${outside}/escaped`],
    ['a child that cds away', (outside) => `bash -c 'cd ${outside} && echo x > escaped'`],
    ['tee', (outside) => `echo x | tee ${outside}/escaped`],
    ['a symlink swapped in for a directory', (outside) => `mkdir d && rmdir d && ln -s ${outside} d && touch d/escaped`],
  ]

  for (const [name, command] of attempts) {
    it(`${name}: refused, and nothing is left outside`, async () => {
      const outside = outsideDir()
      const { results } = await runGuarded(shellSteps({ command: command(outside) }), { approvals: 'never' })
      expect(results[0]).toMatch(/Read-only file system|Permission denied|Operation not permitted/)
      expect(readdirSync(outside)).toEqual([])
    })
  }

  it('the network is off: a loopback server on the host is unreachable', async () => {
    const before = hits
    const { results } = await runGuarded(
      shellSteps({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3` }),
      { approvals: 'never' },
    )
    expect(results[0]).not.toContain('reached')
    expect(results[0]).toMatch(/Connection refused|Network is unreachable|Cannot assign/)
    expect(hits).toBe(before)
  })

  it('with network_access on, the same server answers', async () => {
    const { results } = await runGuarded(
      shellSteps({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3` }),
      {
        approvals: 'never',
        sandbox: { type: 'workspaceWrite', writableRoots: [], networkAccess: true, excludeSlashTmp: false, excludeTmpdirEnvVar: false },
      },
    )
    expect(results[0]).toContain('reached')
  })

  it('a setsid, double-forked child does not outlive its command', async () => {
    const marker = `hk-escape-${process.pid}-${Date.now()}`
    const { dir } = await runGuarded(
      shellSteps({
        command: `(setsid bash -c 'exec -a ${marker} bash -c "while [ ! -e trigger ]; do sleep 0.05; done; echo late > late.txt"' &) ; echo started`,
      }),
      { approvals: 'never' },
    )
    // The command has returned: whatever it left behind is gone already, so the trigger wakes nobody.
    expect(processesNamed(marker)).toEqual([])
    writeFileSync(join(dir, 'trigger'), '')
    expect(processesNamed(marker)).toEqual([])
    expect(existsSync(join(dir, 'late.txt'))).toBe(false)
  })
})
