import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { AppServerClient } from '../src/client.js'
import { WebSocketRefusedError } from '../src/listen/connect-websocket.js'
import { CLOSE } from '../src/listen/message-streams.js'
import { listenWebSocket, NonLoopbackWithoutAuthError, type WebSocketListener } from '../src/listen/serve-websocket.js'
import { MAX_MESSAGE_BYTES } from '../src/listen/websocket-endpoint.js'
import { loadWsAuth } from '../src/listen/ws-auth.js'
import { EchoHost, openRaw, refusedUpgrade, removeTempDirs, tempDir } from './support/listen-support.js'

// What Codex 0.171.0 does on `--listen ws://IP:PORT`, observed with its binary (HOME and CODEX_HOME in a temporary
// directory, no model), one run each unless said:
// - `/readyz` and `/healthz`: 200, empty body (GET and HEAD; other methods 405 `Allow: GET,HEAD`); any other path
//   without an upgrade: 400 `Connection header did not include 'upgrade'`, or 405 `Request method must be \`GET\``.
// - any `Origin` header, even empty, on any path: 403 with an empty body, before auth is looked at.
// - an upgrade on any path other than the health routes is accepted.
// - a binary frame: silently ignored, the connection stays open. A text frame that is not JSON, or two messages in one
//   frame: logged (`Failed to deserialize JSONRPCMessage: …`), ignored, the connection stays open. Invalid UTF-8: the
//   TCP connection dropped without a close frame (1006). Ours close that connection with a code and a reason instead.
// - size: a 16 MiB (16,777,216 byte) frame is answered, one byte more drops the connection (1006, no close frame);
//   fragments may add up to 64 MiB. Ours: 16 MiB for the whole message, closed with 1009 and a reason.
// - a ping gets two pongs (ours: one). A client's close frame is not answered; on SIGTERM clients see 1006 (ours: 1001).
// - other connections are untouched by one being dropped (two runs: invalid UTF-8, oversized).
// - no pings from the server over 35 s of idleness.

let listener: WebSocketListener | undefined
afterEach(async () => {
  await listener?.close()
  listener = undefined
  removeTempDirs()
})

async function listen(options: Partial<Parameters<typeof listenWebSocket>[0]> = {}) {
  const host = new EchoHost()
  listener = await listenWebSocket({ connections: host, host: '127.0.0.1', port: 0, ...options })
  return { host, listener }
}

function http(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }))
    })
    request.on('error', reject)
    request.end()
  })
}

describe('ws:// listener', () => {
  it('binds port 0 to a free port and says which', async () => {
    const { listener } = await listen()
    expect(listener.port).toBeGreaterThan(0)
    expect(listener.url).toBe(`ws://127.0.0.1:${listener.port}`)
  })

  it('answers /readyz and /healthz with 200 and an empty body, and what is not an upgrade as Codex does', async () => {
    const { listener } = await listen()
    const base = listener.url.replace('ws:', 'http:')
    expect(await http(`${base}/readyz`)).toMatchObject({ status: 200, body: '' })
    expect(await http(`${base}/healthz?probe=1`)).toMatchObject({ status: 200, body: '' })
    expect(await http(`${base}/healthz`, { method: 'HEAD' })).toMatchObject({ status: 200 })
    expect(await http(`${base}/readyz`, { method: 'POST' })).toMatchObject({ status: 405, headers: { allow: 'GET,HEAD' } })
    expect(await http(`${base}/`)).toMatchObject({ status: 400, body: "Connection header did not include 'upgrade'" })
    expect(await http(`${base}/anything`, { method: 'PUT' })).toMatchObject({ status: 405, body: 'Request method must be `GET`' })
  })

  it('refuses every request with an Origin header (403), health routes too and before auth: no browser page reaches it', async () => {
    const dir = tempDir('listen-ws-origin-')
    const auth = loadWsAuth({ wsAuth: 'capability-token', wsTokenSha256: 'a'.repeat(64) }, dir)
    const { listener } = await listen({ ...(auth ? { auth } : {}) })
    const base = listener.url.replace('ws:', 'http:')
    expect(await http(`${base}/readyz`, { headers: { Origin: 'http://localhost' } })).toMatchObject({ status: 403, body: '' })
    expect(await refusedUpgrade(listener.url, { Origin: '' })).toEqual({ status: 403, body: '' })
    expect(await refusedUpgrade(listener.url, { Origin: 'http://127.0.0.1', Authorization: 'Bearer wrong' })).toEqual({
      status: 403,
      body: '',
    })
  })

  it('serves many connections at once, one JSON-RPC message per text frame each way', async () => {
    const { host, listener } = await listen()
    const clients = await Promise.all(Array.from({ length: 6 }, () => openRaw(listener.url)))
    const answers = await Promise.all(clients.map((client, index) => client.ask(index, 'ping', { index })))
    expect(new Set(answers.map((answer) => (answer.result as { label: string }).label)).size).toBe(6)
    expect(answers.map((answer) => (answer.result as { params: unknown }).params)).toEqual(clients.map((_, index) => ({ index })))
    // A pretty-printed message is one message.
    const pretty = new Promise((resolve) => clients[0]!.socket.once('message', (data) => resolve(JSON.parse(String(data)))))
    clients[0]!.socket.send(JSON.stringify({ id: 'p', method: 'pretty', params: { a: [1, 2] } }, null, 2))
    expect(await pretty).toMatchObject({ id: 'p', result: { method: 'pretty', params: { a: [1, 2] } } })
    expect(host.open.size).toBe(6)
    for (const client of clients) client.socket.close()
    await Promise.all(clients.map((client) => client.closed))
  })

  it('closes a connection that sends a binary frame (1003, with a reason) and leaves the others open', async () => {
    const { host, listener } = await listen()
    const [sender, bystander] = await Promise.all([openRaw(listener.url), openRaw(listener.url)])
    sender.socket.send(Buffer.from(JSON.stringify({ id: 1, method: 'binary' })), { binary: true })
    expect(await sender.closed).toEqual({ code: CLOSE.unsupportedData, reason: expect.stringContaining('binary frames are not accepted') })
    expect(sender.messages).toEqual([])
    expect(await bystander.ask(2, 'still')).toMatchObject({ id: 2, result: { method: 'still' } })
    expect([...host.open]).toEqual([host.labels[1]])
  })

  it.each([
    ['not JSON', 'not json'],
    ['two messages in one frame', '{"id":1,"method":"a"}\n{"id":2,"method":"b"}'],
    ['JSON that is not an object', '[{"id":1,"method":"a"}]'],
  ])('closes a connection that sends a text frame that is %s (1007, with a reason), others untouched', async (_, frame) => {
    const { listener } = await listen()
    const [sender, bystander] = await Promise.all([openRaw(listener.url), openRaw(listener.url)])
    sender.socket.send(frame)
    expect(await sender.closed).toEqual({ code: CLOSE.invalidPayload, reason: expect.stringMatching(/^not a JSON-RPC message: /) })
    expect(sender.messages).toEqual([])
    expect(await bystander.ask(2, 'still')).toMatchObject({ id: 2 })
  })

  it('closes a connection on a text frame that is not UTF-8 (1007, with a reason), others untouched', async () => {
    const { listener } = await listen()
    const [sender, bystander] = await Promise.all([openRaw(listener.url), openRaw(listener.url)])
    const payload = Buffer.from([0xff, 0xfe])
    const mask = Buffer.from([1, 2, 3, 4])
    const masked = payload.map((byte, index) => byte ^ mask[index % 4]!)
    // FIN + text opcode, masked length 2: what `ws` itself would never send.
    ;(sender.socket as unknown as { _socket: NodeJS.WritableStream })._socket.write(
      Buffer.concat([Buffer.from([0x81, 0x82]), mask, masked]),
    )
    expect(await sender.closed).toEqual({ code: CLOSE.invalidPayload, reason: 'invalid UTF-8 in a text frame' })
    expect(await bystander.ask(2, 'still')).toMatchObject({ id: 2 })
  })

  it('takes a message of 16 MiB and closes a connection whose message is bigger (1009, with a reason), others untouched', async () => {
    const { listener } = await listen()
    const [sender, bystander] = await Promise.all([openRaw(listener.url), openRaw(listener.url)])
    const message = (size: number, id: number) => {
      const head = `{"id":${id},"method":"big","params":"`
      return `${head}${'x'.repeat(size - head.length - 2)}"}`
    }
    expect((await bystander.ask(0, 'warm')).id).toBe(0)
    const atLimit = new Promise<Record<string, unknown>>((resolve) =>
      bystander.socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
    )
    bystander.socket.send(message(MAX_MESSAGE_BYTES, 1))
    expect((await atLimit).id).toBe(1)
    sender.socket.send(message(MAX_MESSAGE_BYTES + 1, 2))
    expect(await sender.closed).toEqual({ code: CLOSE.tooBig, reason: `message too big: the limit is ${MAX_MESSAGE_BYTES} bytes` })
    expect(await bystander.ask(3, 'still')).toMatchObject({ id: 3 })
  })

  it('answers a ping with one pong, before the answer to a request sent after it', async () => {
    const { listener } = await listen()
    const client = await openRaw(listener.url)
    const pongs: string[] = []
    client.socket.on('pong', (data) => pongs.push(String(data)))
    client.socket.ping('are you there')
    await client.ask(1, 'after')
    expect(pongs).toEqual(['are you there'])
  })

  it('closes a connection the server closes with 1000, and every connection at shutdown with 1001 and the reason', async () => {
    const { host, listener } = await listen()
    const [first, second, third] = await Promise.all([openRaw(listener.url), openRaw(listener.url), openRaw(listener.url)])
    await Promise.all([first.ask(1, 'hello'), second.ask(1, 'hello'), third.ask(1, 'hello')])
    const firstLabel = host.labels.find((label) => first.messages.some((message) => JSON.stringify(message).includes(`"${label}"`)))!
    host.hosted.get(firstLabel)!()
    expect(await first.closed).toEqual({ code: CLOSE.normal, reason: 'connection closed by the server' })
    // What the server wrote before closing still arrived.
    expect(first.messages.at(-1)).toEqual({ method: 'bye' })
    await listener.close('going down for the test')
    expect(await second.closed).toEqual({ code: CLOSE.goingAway, reason: 'going down for the test' })
    expect(await third.closed).toEqual({ code: CLOSE.goingAway, reason: 'going down for the test' })
    expect(host.open.size).toBe(0)
  })

  it("refuses a non-loopback address without auth, in Codex's words", async () => {
    const error = await listenWebSocket({ connections: new EchoHost(), host: '0.0.0.0', port: 0 }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NonLoopbackWithoutAuthError)
    expect((error as Error).message).toBe(
      'refusing to start non-loopback websocket listener 0.0.0.0:0 without auth; configure `--ws-auth capability-token` or `--ws-auth signed-bearer-token`',
    )
  })
})

describe('ws:// listener with a capability token', () => {
  it("refuses at the upgrade a missing, malformed or wrong token (401, Codex's texts) and takes the right one", async () => {
    const dir = tempDir('listen-ws-token-')
    const auth = loadWsAuth({ wsAuth: 'capability-token', wsTokenSha256: sha256Hex('the-token') }, dir)!
    const { host, listener } = await listen({ auth })
    expect(await refusedUpgrade(listener.url)).toEqual({ status: 401, body: 'missing websocket bearer token' })
    expect(await refusedUpgrade(listener.url, { Authorization: 'Bearer wrong' })).toEqual({
      status: 401,
      body: 'invalid websocket bearer token',
    })
    expect(await refusedUpgrade(listener.url, { Authorization: 'Basic dGhlLXRva2Vu' })).toEqual({
      status: 401,
      body: 'invalid authorization header',
    })
    expect(await refusedUpgrade(listener.url, { Authorization: 'Bearer ' })).toEqual({ status: 401, body: 'invalid authorization header' })
    expect(host.labels).toEqual([])
    const client = await openRaw(listener.url, { headers: { Authorization: 'bearer  the-token' } })
    expect(await client.ask(1, 'in')).toMatchObject({ id: 1 })
  })

  it('AppServerClient.connect sends the token, and says why the server refused one', async () => {
    const dir = tempDir('listen-ws-client-')
    const auth = loadWsAuth({ wsAuth: 'capability-token', wsTokenSha256: sha256Hex('the-token') }, dir)!
    const { listener } = await listen({ auth })
    const refused = await AppServerClient.connect(listener.url, { token: 'nope' }).catch((caught: unknown) => caught)
    expect(refused).toBeInstanceOf(WebSocketRefusedError)
    expect(refused).toMatchObject({ status: 401, body: 'invalid websocket bearer token' })
    const client = await AppServerClient.connect(listener.url, { token: 'the-token' })
    expect(await client.request('echo', { n: 1 })).toMatchObject({ method: 'echo', params: { n: 1 } })
    await client.close()
  })
})

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
