import { type ChildProcess, spawn } from 'node:child_process'
import { lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppServerClient } from '@harness-kernel/app-server'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, harness, project } from './support.js'

// `harness app-server --listen …` against what Codex 0.171.0 does (observed with its binary, one run each; the
// transports' tests in transports/app-server/test/listen-*.test.ts list the rest): the banner on stderr, exit 2 with
// clap's `invalid value` for a bad --listen URL, exit 1 for `off`, a non-loopback address without auth and an
// unreadable secret, exit 0 on SIGTERM or SIGINT with the unix socket, its lock and its symlink removed.

const children: ChildProcess[] = []
const homes: string[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function freshHome(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'harness-listen-home-')))
  homes.push(dir)
  return dir
}

interface Listening {
  child: ChildProcess
  /** The URL the banner names. */
  url: string
  stderr(): string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `harness app-server ARGS` and resolves once its banner names where it listens. */
function listening(args: string[], options: { cwd: string; home: string }): Promise<Listening> {
  const child = spawn(process.execPath, [BIN, 'app-server', '--model', 'scripted:script.yaml', ...args], {
    cwd: options.cwd,
    env: { ...process.env, HARNESS_HOME: options.home, CODEX_HOME: join(options.home, 'codex'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stderr = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
      const url = /^ {2}listening on: (\S+)$/m.exec(stderr)?.[1]
      if (url) resolve({ child, url, stderr: () => stderr, exited })
    })
    exited.then(({ code }) => reject(new Error(`harness app-server exited (${code}) before listening:\n${stderr}`)))
  })
}

function httpStatus(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
      .on('error', reject)
      .end()
  })
}

const SCRIPT = { 'script.yaml': '- text: hello over the socket\n' }

describe('harness app-server --listen', () => {
  it("ws://127.0.0.1:0 prints Codex's banner on stderr, serves /readyz and many clients, and exits 0 on SIGTERM", async () => {
    const server = await listening(['--listen', 'ws://127.0.0.1:0'], { cwd: project(SCRIPT), home: freshHome() })
    const port = Number(/:(\d+)$/.exec(server.url)![1])
    expect(port).toBeGreaterThan(0)
    expect(server.stderr()).toContain(
      [
        'harness app-server (WebSockets)',
        `  listening on: ws://127.0.0.1:${port}`,
        `  readyz: http://127.0.0.1:${port}/readyz`,
        `  healthz: http://127.0.0.1:${port}/healthz`,
        '  note: binds localhost only (use SSH port-forwarding for remote access)',
      ].join('\n'),
    )
    expect(await httpStatus(`http://127.0.0.1:${port}/readyz`)).toEqual({ status: 200, body: '' })
    const [first, second] = await Promise.all([AppServerClient.connect(server.url), AppServerClient.connect(server.url)])
    const [one, two] = await Promise.all([first.initialize({ name: 'first' }), second.initialize({ name: 'second' })])
    expect(one.userAgent).toMatch(/^first\//)
    expect(two.userAgent).toMatch(/^second\//)
    const closed = new Promise((resolve) => first.once('closed', resolve))
    server.child.kill('SIGTERM')
    expect(await server.exited).toEqual({ code: 0, signal: null })
    await closed
  }, 30_000)

  it('unix:// serves the control socket under $HARNESS_HOME and removes it, its lock and its symlink on SIGINT', async () => {
    const home = freshHome()
    const cwd = project(SCRIPT)
    const server = await listening(['--listen', 'unix://'], { cwd, home })
    const path = join(home, 'app-server-control', 'app-server-control.sock')
    expect(server.url).toBe(`unix://${path}`)
    const socketPath = readlinkSync(path)
    expect(socketPath).toMatch(new RegExp(`^/tmp/harness-daemon-${process.getuid!()}/[0-9a-f]{64}$`))
    const client = await AppServerClient.connect('unix://', { harnessHome: home })
    expect((await client.initialize()).codexHome).toBe(home)
    // A second server on the same socket is refused while this one lives.
    const second = await harness(['app-server', '--model', 'scripted:script.yaml', '--listen', 'unix://'], {
      cwd,
      env: { HARNESS_HOME: home },
    })
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`harness: app-server control socket is already in use at ${path} (pid ${server.child.pid})`)
    server.child.kill('SIGINT')
    expect(await server.exited).toEqual({ code: 0, signal: null })
    for (const file of [path, socketPath, `${socketPath}.lock`]) expect(lstatSync(file, { throwIfNoEntry: false })).toBeUndefined()
  }, 30_000)

  it.each([
    [
      ['--listen', 'http://x'],
      2,
      "harness: invalid value 'http://x' for '--listen <url>': unsupported --listen URL `http://x`; expected `stdio://`, `unix://`, `unix://PATH`, `ws://IP:PORT`, or `off`",
    ],
    [
      ['--listen', 'ws://localhost:0'],
      2,
      "harness: invalid value 'ws://localhost:0' for '--listen <url>': invalid websocket --listen URL `ws://localhost:0`; expected `ws://IP:PORT`",
    ],
    [['--listen', 'off'], 1, 'harness: no transport configured; use --listen'],
    [
      ['--listen', 'ws://0.0.0.0:0'],
      1,
      'harness: refusing to start non-loopback websocket listener 0.0.0.0:0 without auth; configure `--ws-auth capability-token` or `--ws-auth signed-bearer-token`',
    ],
    [
      ['--listen', 'ws://127.0.0.1:0', '--ws-token-file', 'token'],
      1,
      'harness: websocket auth flags require `--ws-auth capability-token` or `--ws-auth signed-bearer-token`',
    ],
    [['--stdio', '--listen', 'ws://127.0.0.1:0'], 2, "error: option '--stdio' cannot be used with option '--listen <url>'"],
    [['--listen', 'stdio://', '--listen', 'stdio://'], 2, "the argument '--listen <url>' cannot be used multiple times"],
    [['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'bogus'], 2, 'Allowed choices are capability-token, signed-bearer-token.'],
  ])('%j exits %i: %s', async (args, code, message) => {
    const result = await harness(['app-server', ...args], { cwd: project() })
    expect(result.code).toBe(code)
    expect(result.stderr).toContain(message)
    expect(result.stdout).toBe('')
  })

  it('reads the token file relative to the working directory and names its absolute path when it is missing', async () => {
    const cwd = project()
    const missing = await harness(
      ['app-server', '--listen', 'ws://0.0.0.0:0', '--ws-auth', 'capability-token', '--ws-token-file', 'token'],
      {
        cwd,
      },
    )
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(
      `harness: failed to read websocket auth secret ${join(cwd, 'token')}: No such file or directory (os error 2)`,
    )
    writeFileSync(join(cwd, 'token'), 'the-token\n')
    writeFileSync(join(cwd, 'script.yaml'), SCRIPT['script.yaml'])
    const server = await listening(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', 'token'], {
      cwd,
      home: freshHome(),
    })
    await expect(AppServerClient.connect(server.url)).rejects.toThrow('401 missing websocket bearer token')
    const client = await AppServerClient.connect(server.url, { token: 'the-token' })
    expect((await client.initialize()).platformFamily).toBe('unix')
    server.child.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
  }, 30_000)
})
