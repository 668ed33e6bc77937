import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppServerClient } from '../src/client.js'
import { DaemonSocketError } from '../src/listen/daemon-socket.js'
import { CLOSE } from '../src/listen/message-streams.js'
import { listenUnix, type UnixListener } from '../src/listen/serve-unix.js'
import { EchoHost, openRaw, refusedUpgrade, removeTempDirs, tempDir } from './support/listen-support.js'

// What Codex 0.171.0 does on `--listen unix://` and `unix://PATH`, observed with its binary (one run each):
// - `unix://` is `$CODEX_HOME/app-server-control/app-server-control.sock` (the directory created 0700); PATH and it
//   are symlinks to `/tmp/codex-daemon-<uid>/<sha256 of the absolute path>` (a relative PATH resolved against the cwd;
//   /tmp whatever TMPDIR says), the socket 0600 in a 0700 directory, an empty `<sha256>.lock` beside it (flock'd).
// - the framing is WebSocket over the socket: a JSON line is answered by nothing and the connection closed; a plain
//   HTTP request (even /readyz) is hung up on; an `Origin` header is accepted; `--ws-auth` is ignored (no file read).
// - a second server on the same path: exit 1, `app-server control socket is already in use at PATH`; after a kill -9
//   the next server replaces the stale socket; SIGTERM or SIGINT removes the socket, its lock and the symlink (exit 0).
// - PATH a regular file or a directory: `app-server control socket path exists and is not a socket: PATH`; a symlink
//   elsewhere: `File exists (os error 17)`; a stale socket file: replaced. The daemon directory with mode 0755 or
//   owned by another user: `app-server socket directory must be a user-owned directory with mode 0700`.
// Ours differ where they are stricter or say more: Origin refused (403), auth asked when configured, the holder's pid
// in the refusal, 400 for a plain request, a banner on stderr.

let listener: UnixListener | undefined
afterEach(async () => {
  await listener?.close()
  listener = undefined
  removeTempDirs()
})

function dirs() {
  const root = tempDir('listen-unix-')
  const daemonDir = join(root, 'daemon')
  return { root, daemonDir }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const address = (path: string) => `ws+unix://${path}:/`

describe('unix:// listener', () => {
  it('listens on a socket 0600 in a private directory, named by the hash of the path, the path a symlink to it', async () => {
    const { root, daemonDir } = dirs()
    const host = new EchoHost()
    listener = await listenUnix({ connections: host, path: 'app.sock', cwd: root, daemonDir })
    const path = join(root, 'app.sock')
    expect(listener.path).toBe(path)
    expect(listener.socketPath).toBe(join(daemonDir, sha256(path)))
    expect(readlinkSync(path)).toBe(listener.socketPath)
    expect(statSync(daemonDir).mode & 0o777).toBe(0o700)
    expect(lstatSync(listener.socketPath).isSocket()).toBe(true)
    expect(statSync(listener.socketPath).mode & 0o777).toBe(0o600)
    expect(readFileSync(`${listener.socketPath}.lock`, 'utf8')).toBe(`${process.pid}\n`)
    const client = await openRaw(address(path))
    expect(await client.ask(1, 'over unix')).toMatchObject({ id: 1, result: { method: 'over unix', label: 'unix socket #1' } })
    client.socket.close()
    await client.closed
  })

  it('speaks WebSocket on the socket as Codex does: a JSON line is not an upgrade', async () => {
    const { root, daemonDir } = dirs()
    listener = await listenUnix({ connections: new EchoHost(), path: join(root, 's.sock'), daemonDir })
    const socket = connect(listener.path)
    socket.setEncoding('utf8')
    let answer = ''
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.write('{"id":1,"method":"initialize","params":{}}\n')
    await new Promise((resolve) => socket.once('close', resolve))
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/)
  })

  it('serves many connections at once, AppServerClient.connect among them; refuses a browser Origin', async () => {
    const { root, daemonDir } = dirs()
    const host = new EchoHost()
    listener = await listenUnix({ connections: host, path: join(root, 's.sock'), daemonDir })
    const clients = await Promise.all([1, 2, 3].map(() => AppServerClient.connect(`unix://${listener!.path}`)))
    const answers = await Promise.all(clients.map((client, index) => client.request<{ label: string }>('who', { index })))
    expect(new Set(answers.map((answer) => answer.label)).size).toBe(3)
    expect(await refusedUpgrade(address(listener.path), { Origin: 'http://localhost' })).toEqual({ status: 403, body: '' })
    await Promise.all(clients.map((client) => client.close()))
    expect(host.open.size).toBe(0)
  })

  it('closes a connection that sends a frame that is not a JSON-RPC message, others untouched', async () => {
    const { root, daemonDir } = dirs()
    listener = await listenUnix({ connections: new EchoHost(), path: join(root, 's.sock'), daemonDir })
    const [sender, bystander] = await Promise.all([openRaw(address(listener.path)), openRaw(address(listener.path))])
    sender.socket.send('{"id":1,')
    expect((await sender.closed).code).toBe(CLOSE.invalidPayload)
    expect(await bystander.ask(2, 'still')).toMatchObject({ id: 2 })
  })

  it('on close, closes its clients (1001) and removes the symlink, the socket and the lock', async () => {
    const { root, daemonDir } = dirs()
    listener = await listenUnix({ connections: new EchoHost(), path: join(root, 's.sock'), daemonDir })
    const { path, socketPath } = listener
    const client = await openRaw(address(path))
    await listener.close('bye for now')
    listener = undefined
    expect(await client.closed).toEqual({ code: CLOSE.goingAway, reason: 'bye for now' })
    for (const file of [path, socketPath, `${socketPath}.lock`]) expect(lstatSync(file, { throwIfNoEntry: false })).toBeUndefined()
  })

  it('refuses to start while another live server holds the socket, naming its pid', async () => {
    const { root, daemonDir } = dirs()
    const path = join(root, 's.sock')
    mkdirSync(daemonDir, { mode: 0o700 })
    // The other server: a process of its own (a lock naming this process is this process's own, hence stale).
    const other = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(process.argv[1], () => console.log('up'))`, join(daemonDir, sha256(path))],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    try {
      writeFileSync(join(daemonDir, `${sha256(path)}.lock`), `${other.pid}\n`)
      await new Promise((resolve) => other.stdout!.once('data', resolve))
      const error = await listenUnix({ connections: new EchoHost(), path, daemonDir }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DaemonSocketError)
      expect((error as Error).message).toBe(`app-server control socket is already in use at ${path} (pid ${other.pid})`)
      expect(lstatSync(path, { throwIfNoEntry: false })).toBeUndefined()
    } finally {
      other.kill()
    }
  })

  it('replaces what a server killed without cleanup left: its lock, its socket and its symlink', async () => {
    const { root, daemonDir } = dirs()
    const path = join(root, 's.sock')
    const socketPath = join(daemonDir, sha256(path))
    const dead = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => dead.once('exit', resolve))
    mkdirSync(daemonDir, { mode: 0o700 })
    writeFileSync(`${socketPath}.lock`, `${dead.pid}\n`)
    await staleSocket(socketPath)
    symlinkSync(socketPath, path)
    listener = await listenUnix({ connections: new EchoHost(), path, daemonDir })
    expect(readFileSync(`${socketPath}.lock`, 'utf8')).toBe(`${process.pid}\n`)
    const client = await openRaw(address(path))
    expect(await client.ask(1, 'fresh')).toMatchObject({ id: 1 })
    client.socket.close()
  })

  it('takes over a lock whose pid is alive but serves nothing there (a pid reused since)', async () => {
    const { root, daemonDir } = dirs()
    const path = join(root, 's.sock')
    const socketPath = join(daemonDir, sha256(path))
    const unrelated = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'inherit'] })
    try {
      mkdirSync(daemonDir, { mode: 0o700 })
      writeFileSync(`${socketPath}.lock`, `${unrelated.pid}\n`)
      await staleSocket(socketPath)
      listener = await listenUnix({ connections: new EchoHost(), path, daemonDir })
      expect(readFileSync(`${socketPath}.lock`, 'utf8')).toBe(`${process.pid}\n`)
    } finally {
      unrelated.kill()
    }
  })

  it('replaces a stale socket file at the path; refuses a file, a directory or a foreign symlink there', async () => {
    const { root, daemonDir } = dirs()
    const stale = join(root, 'stale.sock')
    await staleSocket(stale)
    listener = await listenUnix({ connections: new EchoHost(), path: stale, daemonDir })
    expect(readlinkSync(stale)).toBe(listener.socketPath)
    writeFileSync(join(root, 'file.sock'), 'hi')
    mkdirSync(join(root, 'dir.sock'))
    symlinkSync('/nonexistent/x', join(root, 'link.sock'))
    for (const name of ['file.sock', 'dir.sock'])
      await expect(listenUnix({ connections: new EchoHost(), path: join(root, name), daemonDir })).rejects.toThrow(
        `app-server control socket path exists and is not a socket: ${join(root, name)}`,
      )
    await expect(listenUnix({ connections: new EchoHost(), path: join(root, 'link.sock'), daemonDir })).rejects.toThrow(
      'exists and is a symlink to /nonexistent/x',
    )
    expect(readFileSync(join(root, 'file.sock'), 'utf8')).toBe('hi')
  })

  it("refuses a daemon directory others can enter, and a missing parent directory, in Codex's words where it has some", async () => {
    const { root, daemonDir } = dirs()
    mkdirSync(daemonDir, { mode: 0o755 })
    await expect(listenUnix({ connections: new EchoHost(), path: join(root, 's.sock'), daemonDir })).rejects.toThrow(
      'app-server socket directory must be a user-owned directory with mode 0700',
    )
    await expect(
      listenUnix({ connections: new EchoHost(), path: join(root, 'no', 'such', 's.sock'), daemonDir: join(root, 'd2') }),
    ).rejects.toThrow(`${join(root, 'no', 'such')} is not a directory`)
  })

  it('asks the token when auth is configured (Codex ignores its --ws-auth there)', async () => {
    const { root, daemonDir } = dirs()
    const tokenSha256 = Buffer.from(sha256('the-token'), 'hex')
    listener = await listenUnix({
      connections: new EchoHost(),
      path: join(root, 's.sock'),
      daemonDir,
      auth: { mode: 'capability-token', tokenSha256 },
    })
    expect(await refusedUpgrade(address(listener.path))).toEqual({ status: 401, body: 'missing websocket bearer token' })
    const client = await AppServerClient.connect(`unix://${listener.path}`, { token: 'the-token' })
    expect(await client.request('in')).toMatchObject({ method: 'in' })
    await client.close()
  })
})

/** A socket file nobody listens on any more: what a server killed with SIGKILL leaves. */
async function staleSocket(path: string): Promise<void> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(path, resolve))
  // Closing a listening server unlinks its socket; a copy of the inode under another name survives as the stale file.
  const { linkSync, renameSync } = await import('node:fs')
  linkSync(path, `${path}.keep`)
  await new Promise((resolve) => server.close(resolve))
  renameSync(`${path}.keep`, path)
}
