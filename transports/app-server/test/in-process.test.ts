import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { createKernel } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppServer } from '../src/app-server.js'
import { createAppServerBridge } from '../src/bridge.js'
import { AppServerClient } from '../src/client.js'
import { readLines } from '../src/json-lines.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the server sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

describe('in-process use', () => {
  it('reads lines split across chunks, CRLF and a last line without newline', async () => {
    const input = new PassThrough()
    const lines: string[] = []
    const ended = new Promise<void>((resolve) => readLines(input, (line) => lines.push(line), resolve))
    input.write('{"a":')
    input.write('1}\r\n\n{"b":2}\n{"c"')
    input.end(':3}')
    await ended
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}'])
  })

  it('serves a kernel composed by the caller over in-memory streams; the kernel stays the caller’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-server-in-process-'))
    const bridge = createAppServerBridge()
    const kernel = createKernel([bridge.plugin, scriptedModel({ script: [{ text: 'hello there' }] })], { cwd: dir })
    const toServer = new PassThrough()
    const fromServer = new PassThrough()
    const logs: string[] = []
    const server = createAppServer({ kernel, bridge, input: toServer, output: fromServer, log: (line) => logs.push(line) })
    const client = new AppServerClient(fromServer, toServer, { onReceive: codexSchema.onReceive })
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'hi')
    const done = await client.turnCompleted(thread.id, turn.id)
    expect(done.turn.items).toMatchObject([{ type: 'agentMessage', text: 'hello there' }])
    toServer.end()
    await server.closed
    await expect(kernel.startSession()).resolves.toBeDefined()
    await kernel.dispose()
    expect(() => createAppServer({ kernel, input: toServer, output: fromServer })).toThrow(/bridge/)
  })
})
