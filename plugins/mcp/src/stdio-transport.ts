import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { McpStdioServer } from './server-config.js'

const STDERR_TAIL_BYTES = 4096
const KILL_GRACE_MS = 2000

/**
 * MCP over a child's stdin and stdout, the child in a process group of its own (the SDK's stdio transport leaves it in
 * the kernel's), so stopping the server stops whatever it started too. Its stderr is kept (the tail) for error texts.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  readonly #config: McpStdioServer
  readonly #cwd: string
  readonly #buffer = new ReadBuffer()
  #child: ChildProcessWithoutNullStreams | undefined
  #stderr = ''
  #exit: string | undefined
  #exited: Promise<void> | undefined

  constructor(config: McpStdioServer, cwd: string) {
    this.#config = config
    this.#cwd = config.cwd ?? cwd
  }

  /** How the process ended (`exited with code 1`, `killed by SIGKILL`) and what it last wrote to stderr, once it has. */
  get exitReason(): string | undefined {
    if (this.#exit === undefined) return undefined
    const tail = this.#stderr.trim()
    return tail === '' ? this.#exit : `${this.#exit}; its stderr ended with: ${tail}`
  }

  start(): Promise<void> {
    const child = spawn(this.#config.command, [...(this.#config.args ?? [])], {
      cwd: this.#cwd,
      env: { ...process.env, ...this.#config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    })
    this.#child = child
    child.stdin.on('error', (error) => this.onerror?.(error))
    child.stdout.on('data', (chunk: Buffer) => this.#read(chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
    })
    this.#exited = new Promise((resolve) =>
      child.once('close', (code, signal) => {
        this.#exit = signal ? `killed by ${signal}` : `exited with code ${code}`
        resolve()
        this.onclose?.()
      }),
    )
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve())
      child.once('error', (error) => {
        this.#exit = `could not be started: ${error.message}`
        reject(new Error(`could not start ${this.#config.command}: ${error.message}`))
      })
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (!stdin || stdin.destroyed) throw new Error(`the server is not running (${this.exitReason ?? 'not started'})`)
    await new Promise<void>((resolve, reject) => stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve())))
  }

  async close(): Promise<void> {
    const child = this.#child
    if (!child?.pid || this.#exit !== undefined) return
    child.stdin.end()
    signalGroup(child.pid, 'SIGTERM')
    const timer = setTimeout(() => signalGroup(child.pid as number, 'SIGKILL'), KILL_GRACE_MS)
    await this.#exited
    clearTimeout(timer)
    // What the server started and left in its group goes with it.
    signalGroup(child.pid, 'SIGKILL')
  }

  #read(chunk: Buffer): void {
    this.#buffer.append(chunk)
    for (;;) {
      let message: JSONRPCMessage | null
      try {
        message = this.#buffer.readMessage()
      } catch (error) {
        this.onerror?.(new Error(`the server wrote a line that is not JSON-RPC: ${(error as Error).message}`))
        continue
      }
      if (message === null) return
      this.onmessage?.(message)
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}
