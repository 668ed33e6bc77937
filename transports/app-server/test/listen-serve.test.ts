import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { createKernel } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach, describe, expect, it } from 'vitest'
import { AppServerClient } from '../src/client.js'
import { NoTransportError, type ServeOptions, type ServingServer, serve } from '../src/listen/serve.js'
import { NonLoopbackWithoutAuthError } from '../src/listen/serve-websocket.js'
import type { WireTurn } from '../src/wire-items.js'
import { removeTempDirs, tempDir } from './support/listen-support.js'

const servers: ServingServer[] = []
const clients: AppServerClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  for (const server of servers.splice(0)) await server.close()
  removeTempDirs()
})

/** `serve` on the real host, with a kernel on the scripted model that the server composes (and disposes). */
async function serveWith(steps: ScriptStep[], options: Partial<ServeOptions> & Pick<ServeOptions, 'listen'>) {
  const cwd = realpathSync(tempDir('listen-serve-'))
  const banners: string[] = []
  const server = await serve({
    createKernel: (plugins) => createKernel([...plugins, scriptedModel({ script: steps })], { cwd }),
    log: () => {},
    banner: (text) => banners.push(text),
    daemonDir: join(cwd, 'daemon'),
    ...options,
  })
  servers.push(server)
  return { server, banners, cwd }
}

async function connect(url: string, options: { harnessHome?: string } = {}): Promise<AppServerClient> {
  const client = await AppServerClient.connect(url, options)
  clients.push(client)
  await client.initialize()
  return client
}

describe('serve', () => {
  it('serves many WebSocket clients on one server: a thread one starts, another resumes and keeps after the first leaves', async () => {
    const { server, banners } = await serveWith([{ text: 'first' }, { text: 'second' }], { listen: 'ws://127.0.0.1:0' })
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
    expect(banners.join('')).toContain(`  listening on: ${server.url}\n`)
    const [starter, joiner] = await Promise.all([connect(server.url!), connect(server.url!)])
    const { thread } = await starter.startThread()
    const { turn } = await starter.startTurn(thread.id, 'hello')
    expect((await starter.turnCompleted(thread.id, turn.id)).turn.status).toBe('completed')
    await starter.close()
    const resumed = await joiner.resumeThread(thread.id)
    expect(resumed.thread.turns.map((entry: WireTurn) => entry.id)).toEqual([turn.id])
    const next = await joiner.startTurn(thread.id, 'again')
    expect((await joiner.turnCompleted(thread.id, next.turn.id)).turn.status).toBe('completed')
  })

  it('serves the default unix socket under HARNESS_HOME, and removes it on close', async () => {
    const harnessHome = realpathSync(tempDir('listen-serve-home-'))
    const { server, banners, cwd } = await serveWith([], { listen: 'unix://', harnessHome })
    const path = join(harnessHome, 'app-server-control', 'app-server-control.sock')
    expect(server.url).toBe(`unix://${path}`)
    expect(statSync(join(harnessHome, 'app-server-control')).mode & 0o777).toBe(0o700)
    expect(readlinkSync(path).startsWith(join(cwd, 'daemon'))).toBe(true)
    expect(banners.join('')).toContain(`  listening on: unix://${path}\n`)
    const client = await connect('unix://', { harnessHome })
    expect((await client.request<{ data: unknown[] }>('thread/list', {})).data).toEqual([])
    await client.close()
    await server.close()
    expect(lstatSync(path, { throwIfNoEntry: false })).toBeUndefined()
  }, 30_000)

  it('serves stdio on the streams it is given; the server ends with the connection', async () => {
    const toServer = new PassThrough()
    const fromServer = new PassThrough()
    const { server } = await serveWith([], { listen: 'stdio://', stdin: toServer, stdout: fromServer })
    expect(server.url).toBeUndefined()
    const client = new AppServerClient(fromServer, toServer)
    expect((await client.initialize()).platformFamily).toBe('unix')
    toServer.end()
    await server.closed
  })

  it('refuses `off`, and a non-loopback address without auth, having disposed of the kernel it composed', async () => {
    await expect(serveWith([], { listen: 'off' })).rejects.toBeInstanceOf(NoTransportError)
    let disposed = false
    const refused = serve({
      createKernel: async (plugins) => {
        const kernel = createKernel([...plugins, scriptedModel({ script: [] })], { cwd: realpathSync(tempDir('listen-serve-')) })
        const dispose = kernel.dispose.bind(kernel)
        kernel.dispose = async () => {
          disposed = true
          await dispose()
        }
        return kernel
      },
      listen: 'ws://0.0.0.0:0',
      log: () => {},
    })
    await expect(refused).rejects.toBeInstanceOf(NonLoopbackWithoutAuthError)
    expect(disposed).toBe(true)
  })
})
