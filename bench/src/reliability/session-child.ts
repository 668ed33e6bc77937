import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { DIST } from './dist-modules.js'

/**
 * A child process (the build) holding one kernel session, driven by lines on stdin and reporting JSON lines on stdout:
 * - `start` / `resume`: open the session (`ready`, with the pid).
 * - `loop`: run turns one after another, forever; the model takes 0–4 ms and calls the `echo` tool up to three times
 *   per turn (`sampling` and `tool` are reported as they happen).
 * - `steer <text>`: `session.steer(text)`; `receipt` with the text and the outcome once the receipt settles.
 * - `hold`: one turn whose model waits for `answer` (`sampling` once it waits; `turn` with the status at the end).
 * - `turn`: one turn (`turn`); `end`: end the session (`ended`); `exit`: leave without ending.
 * A failed command reports `error` with the error's name and message.
 */
const CHILD = `
import { createInterface } from 'node:readline'
const { createKernel, definePlugin, defineTool } = await import(${JSON.stringify(DIST.kernel)})
const { z } = await import(${JSON.stringify(DIST.zod)})
const [cwd, id] = process.argv.slice(2)
const say = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
let gate
const model = {
  id: 'child',
  async generate(request) {
    say({ event: 'sampling' })
    if (gate) await gate.promise
    gate = undefined
    await pause(Math.floor(Math.random() * 5))
    let calls = 0
    for (const message of [...request.messages].reverse()) {
      if (message.role === 'user' && message.source.kind !== 'tool') break
      if (message.content.some((block) => block.type === 'tool_call')) calls++
    }
    if (calls < 3 && Math.random() < 0.6) return { content: [{ type: 'tool_call', id: 'c' + request.messages.length, name: 'echo', input: { text: 'x' } }] }
    return { content: [{ type: 'text', text: 'ok' }] }
  },
}
const echo = defineTool({
  name: 'echo',
  description: 'echo',
  inputSchema: z.object({ text: z.string() }),
  async execute({ text }) {
    say({ event: 'tool' })
    await pause(Math.floor(Math.random() * 3))
    return { output: text, isError: false }
  },
})
const kernel = createKernel([definePlugin({ name: 'child', setup: (api) => { api.provide('model', model); api.registerTool(echo) } })], { cwd })
let session
let turns = 0
for await (const line of createInterface({ input: process.stdin })) {
  const [command] = line.split(' ', 1)
  try {
    if (command === 'start' || command === 'resume') {
      session = command === 'start' ? await kernel.startSession({ id }) : await kernel.resumeSession(id)
      say({ event: 'ready', pid: process.pid })
    } else if (command === 'loop') {
      ;(async () => { for (;;) { await session.run('turn ' + turns++); await session.idle() } })()
    } else if (command === 'steer') {
      const text = line.slice('steer '.length)
      session.steer(text).then((outcome) => say({ event: 'receipt', text, state: outcome.state }), (error) => say({ event: 'receipt', text, state: error.name }))
    } else if (command === 'hold') {
      let open
      gate = { promise: new Promise((resolve) => { open = resolve }), open }
      session.run('held').then((result) => say({ event: 'turn', status: result.status }))
    } else if (command === 'answer') {
      gate?.open()
    } else if (command === 'turn') {
      say({ event: 'turn', status: (await session.run('after resume')).status })
    } else if (command === 'end') {
      await session.end()
      say({ event: 'ended' })
    } else if (command === 'exit') {
      process.exit(0)
    }
  } catch (error) {
    say({ event: 'error', name: error.name, message: error.message })
  }
}
`

export interface ChildReport {
  event: string
  [field: string]: unknown
}

export class SessionChild {
  readonly process: ChildProcessWithoutNullStreams
  readonly pid: number
  readonly exited: Promise<number | null>
  /** Every report so far, in order. */
  readonly reports: ChildReport[] = []
  readonly #waiters: (() => void)[] = []
  #stderr = ''
  #taken = 0

  /** A child for session `id` of a kernel whose cwd is `cwd`; its script is written to `dir` once. */
  constructor(options: { dir: string; cwd: string; id: string }) {
    const script = join(options.dir, 'session-child.mjs')
    if (!existsSync(script)) writeFileSync(script, CHILD)
    this.process = spawn(process.execPath, [script, options.cwd, options.id], { stdio: ['pipe', 'pipe', 'pipe'] })
    this.pid = this.process.pid!
    this.exited = new Promise((resolve) => this.process.on('exit', (code) => resolve(code)))
    // A killed child's stdin is gone: a late write must not fail the parent.
    this.process.stdin.on('error', () => {})
    createInterface({ input: this.process.stdout }).on('line', (line) => {
      this.reports.push(JSON.parse(line) as ChildReport)
      for (const wake of this.#waiters.splice(0)) wake()
    })
    this.process.stderr.on('data', (chunk) => {
      this.#stderr += String(chunk)
    })
  }

  send(command: string): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.stdin.write(`${command}\n`)
  }

  /** The next report with this event that no earlier `next` took (or an `error` report). */
  async next(event: string): Promise<ChildReport> {
    for (;;) {
      const index = this.reports.findIndex((report, at) => at >= this.#taken && (report.event === event || report.event === 'error'))
      if (index >= 0) {
        this.#taken = index + 1
        return this.reports[index]!
      }
      if (this.process.exitCode !== null || this.process.signalCode !== null) {
        throw new Error(`child ${this.pid} exited (${this.process.exitCode ?? this.process.signalCode}) before "${event}": ${this.#stderr}`)
      }
      await Promise.race([new Promise<void>((resolve) => this.#waiters.push(resolve)), this.exited])
    }
  }

  async kill(): Promise<void> {
    this.process.kill('SIGKILL')
    await this.exited
  }
}
