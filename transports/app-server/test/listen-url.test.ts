import { describe, expect, it } from 'vitest'
import { webSocketBanner } from '../src/listen/banner.js'
import { isLoopback, parseListenUrl } from '../src/listen/listen-url.js'

// Codex 0.171.0's `codex app-server --listen VALUE`, observed with its binary (one run each): these values start a
// listener or are refused with these words (clap's exit 2, `error: invalid value 'VALUE' for '--listen <URL>': …`).
const UNSUPPORTED = (value: string) =>
  `unsupported --listen URL \`${value}\`; expected \`stdio://\`, \`unix://\`, \`unix://PATH\`, \`ws://IP:PORT\`, or \`off\``
const INVALID_WS = (value: string) => `invalid websocket --listen URL \`${value}\`; expected \`ws://IP:PORT\``

describe('parseListenUrl', () => {
  it('takes the five forms Codex takes', () => {
    expect(parseListenUrl('stdio://')).toEqual({ transport: 'stdio' })
    expect(parseListenUrl('off')).toEqual({ transport: 'off' })
    expect(parseListenUrl('unix://')).toEqual({ transport: 'unix', path: undefined })
    expect(parseListenUrl('unix:///run/app.sock')).toEqual({ transport: 'unix', path: '/run/app.sock' })
    expect(parseListenUrl('unix://rel.sock')).toEqual({ transport: 'unix', path: 'rel.sock' })
    expect(parseListenUrl('ws://127.0.0.1:0')).toEqual({ transport: 'ws', host: '127.0.0.1', port: 0 })
    expect(parseListenUrl('ws://0.0.0.0:4500')).toEqual({ transport: 'ws', host: '0.0.0.0', port: 4500 })
    expect(parseListenUrl('ws://[::1]:65535')).toEqual({ transport: 'ws', host: '::1', port: 65535 })
  })

  it.each(['http://x', 'tcp://1.2.3.4:5', 'wss://127.0.0.1:0', 'stdio', 'stdio://x', 'unix:', 'foo', '', 'OFF', 'WS://127.0.0.1:0'])(
    'refuses %j as Codex does',
    (value) => {
      expect(() => parseListenUrl(value)).toThrow(UNSUPPORTED(value))
    },
  )

  it.each([
    'ws://localhost:0',
    'ws://127.0.0.1',
    'ws://127.0.0.1:abc',
    'ws://127.0.0.1:99999',
    'ws://127.0.0.1:0/',
    'ws://[::1]:0/path',
    'ws://127.0.0.1:0?x=1',
    'ws://user@127.0.0.1:0',
    'ws://127.1:0',
    'ws://::1:0',
  ])('refuses the WebSocket address %j as Codex does: an IP and a port, nothing else', (value) => {
    expect(() => parseListenUrl(value)).toThrow(INVALID_WS(value))
  })
})

describe('isLoopback', () => {
  it("is Rust's is_loopback, which decides whether Codex needs auth: 127.0.0.0/8 and ::1 only", () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1']) expect(isLoopback(host)).toBe(true)
    // Codex 0.171.0 refuses 0.0.0.0, [::] and [::ffff:127.0.0.1] without auth (observed).
    for (const host of ['0.0.0.0', '::', '::ffff:127.0.0.1', '10.0.0.1', '128.0.0.1']) expect(isLoopback(host)).toBe(false)
  })
})

describe('webSocketBanner', () => {
  it("is Codex 0.171.0's banner with our name, the note depending on the address", () => {
    expect(webSocketBanner({ host: '::1', url: 'ws://[::1]:4500' })).toBe(
      [
        'harness app-server (WebSockets)',
        '  listening on: ws://[::1]:4500',
        '  readyz: http://[::1]:4500/readyz',
        '  healthz: http://[::1]:4500/healthz',
        '  note: binds localhost only (use SSH port-forwarding for remote access)',
        '',
      ].join('\n'),
    )
    expect(webSocketBanner({ host: '0.0.0.0', url: 'ws://0.0.0.0:4500' })).toContain(
      '  note: websocket auth is required for non-localhost listeners\n',
    )
  })
})
