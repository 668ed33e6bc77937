import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { fileURLToPath } from 'node:url'

const FIXTURE = fileURLToPath(new URL('../fixtures/fleet-node.mjs', import.meta.url))

/** What a node prints on stdout, one JSON object a line (see the fixture's header). */
export type NodeLine =
  | { kind: 'ready'; url: string; pid: number }
  | { kind: 'tool'; threadId: string; pid: number }
  | { kind: 'notice'; threadId: string; level: string; text: string }
  | { kind: 'lost'; threadId: string }

export type NodeRole = 'front-end' | 'worker'

export interface NodeSettings {
  databaseUrl: string
  schema: string
  cwd: string
  /** Shared by every node: they stand for processes on one host, which reap what a dead one left running. */
  ledgerDir: string
  leaseMs: number
}

/** A fleet node: a child process running the fixture. */
export class FleetNode {
  readonly lines: NodeLine[] = []
  readonly #events = new EventEmitter()
  #stderr = ''
  url = ''
  readonly exited: Promise<void>

  constructor(
    readonly name: string,
    readonly role: NodeRole,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()))
    let partial = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk
      for (let end = partial.indexOf('\n'); end >= 0; end = partial.indexOf('\n')) {
        const text = partial.slice(0, end)
        partial = partial.slice(end + 1)
        const line = parseLine(text)
        if (!line) continue
        this.lines.push(line)
        this.#events.emit('line', line)
      }
    })
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      // The tail is enough to tell what a node was doing when a run fails.
      this.#stderr = (this.#stderr + chunk).slice(-20_000)
    })
  }

  get pid(): number {
    return this.child.pid!
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  get stderr(): string {
    return this.#stderr
  }

  /** The first line (from index `since`) that matches; rejects after `timeoutMs` or when the node exits. */
  waitFor<T extends NodeLine>(match: (line: NodeLine) => line is T, what: string, timeoutMs: number, since = 0): Promise<T> {
    const found = this.lines.slice(since).find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        this.#events.off('line', listener)
        this.child.off('exit', exited)
      }
      const listener = (line: NodeLine) => {
        if (!match(line)) return
        done()
        resolve(line)
      }
      const exited = () => {
        done()
        reject(new Error(`${this.name} exited while waiting for ${what}; its stderr:\n${this.#stderr}`))
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`${this.name}: gave up after ${timeoutMs} ms waiting for ${what}`))
      }, timeoutMs)
      this.#events.on('line', listener)
      this.child.once('exit', exited)
    })
  }

  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal)
  }
}

/** A line the fixture printed; anything else on stdout (a library's output) is not the test's business. */
function parseLine(text: string): NodeLine | undefined {
  try {
    const line = JSON.parse(text) as NodeLine
    return typeof line === 'object' && line !== null && typeof line.kind === 'string' ? line : undefined
  } catch {
    return undefined
  }
}

const isReady = (line: NodeLine): line is Extract<NodeLine, { kind: 'ready' }> => line.kind === 'ready'

/** Every node of a run, live or dead, and the ones to replace a killed node with. */
export class Fleet {
  readonly nodes: FleetNode[] = []
  #count = 0

  constructor(readonly settings: NodeSettings) {}

  async start(role: NodeRole): Promise<FleetNode> {
    const { databaseUrl, schema, cwd, ledgerDir, leaseMs } = this.settings
    const args = [FIXTURE, '--url', databaseUrl, '--schema', schema, '--cwd', cwd, '--ledger-dir', ledgerDir, '--lease-ms', String(leaseMs)]
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    const node = new FleetNode(`${role} ${++this.#count}`, role, child)
    this.nodes.push(node)
    node.url = (await node.waitFor(isReady, 'its ready line', 30_000)).url
    return node
  }

  /** The nodes that are up and listening. */
  live(role?: NodeRole): FleetNode[] {
    return this.nodes.filter((node) => node.alive && node.url !== '' && (role === undefined || node.role === role))
  }

  byPid(pid: number): FleetNode | undefined {
    return this.nodes.find((node) => node.pid === pid)
  }

  /** SIGKILLs every node, stopped ones included. */
  async killAll(): Promise<void> {
    for (const node of this.nodes) node.signal('SIGKILL')
    await Promise.all(this.nodes.map((node) => node.exited))
  }
}
