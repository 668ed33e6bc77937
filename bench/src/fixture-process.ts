import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** What a fixture prints: one JSON object per line, `event` naming it. */
export interface FixtureLine {
  event: string
  [key: string]: unknown
}

/**
 * A fixture of `src/fixtures/` run as a child process (the build, `dist/fixtures/<name>.js`) that reports JSON lines
 * on stdout and reads commands on stdin. Every line is kept, so a wait never misses one printed before it began.
 */
export class FixtureProcess {
  readonly child: ChildProcessWithoutNullStreams
  readonly lines: FixtureLine[] = []
  readonly #listeners = new Set<() => void>()
  #stderr = ''
  #exited = false

  constructor(name: string, args: readonly string[]) {
    const script = fileURLToPath(new URL(`./fixtures/${name}.js`, import.meta.url))
    this.child = spawn(process.execPath, [script, ...args], { stdio: 'pipe' })
    let partial = ''
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n')
      partial = parts.pop() ?? ''
      for (const part of parts) if (part.trim() !== '') this.lines.push(JSON.parse(part) as FixtureLine)
      this.#notify()
    })
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4000)
    })
    // 'close', not 'exit': by then every line it printed has been read.
    this.child.once('close', () => {
      this.#exited = true
      this.#notify()
    })
  }

  get pid(): number {
    return this.child.pid ?? -1
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`)
  }

  /** The first line (from the start) that `matches`; rejects if the child exits or `timeoutMs` passes first. */
  waitFor(matches: (line: FixtureLine) => boolean, timeoutMs: number, what = 'a line'): Promise<FixtureLine> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.find(matches)
        if (found !== undefined) return done(() => resolve(found))
        if (this.#exited) done(() => reject(new Error(`${what}: the fixture exited first; its stderr: ${this.#stderr}`)))
      }
      const timer = setTimeout(
        () => done(() => reject(new Error(`${what}: nothing after ${timeoutMs} ms; stderr: ${this.#stderr}`))),
        timeoutMs,
      )
      const done = (settle: () => void) => {
        clearTimeout(timer)
        this.#listeners.delete(check)
        settle()
      }
      this.#listeners.add(check)
      check()
    })
  }

  waitForEvent(event: string, timeoutMs: number): Promise<FixtureLine> {
    return this.waitFor((line) => line.event === event, timeoutMs, `"${event}" from ${this.pid}`)
  }

  /** SIGKILL, unless it has exited; settles once it has. */
  async kill(): Promise<void> {
    if (this.#exited) return
    const exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()))
    this.child.kill('SIGKILL')
    await exited
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener()
  }
}
