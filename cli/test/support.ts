import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SessionEvent } from '@harness-kernel/kernel'
import { afterAll, afterEach, beforeAll } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const BIN = join(root, 'cli/dist/bin.js')

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with npx tsc -b`)
})

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Empty homes for the command unless a test passes its own, so no test reads the real ~/.codex, ~/.claude or ~/.harness. */
const isolatedHomes = mkdtempSync(join(tmpdir(), 'harness-cli-homes-'))
afterAll(() => rmSync(isolatedHomes, { recursive: true, force: true }))

/**
 * A fresh project directory, removed after the test: an ES module package whose node_modules is the
 * workspace's, so config files can import `@harness-kernel/*` (resolved to their dist builds).
 */
export function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-cli-'))
  dirs.push(dir)
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd: string
  /** Written to stdin, which is then closed (closed at once without it). */
  input?: string
  env?: Record<string, string>
  /** Called once the child runs, e.g. to signal it. */
  onSpawn?: (child: ChildProcess) => void
}

/** Runs the built `harness` command (`node cli/dist/bin.js …`) and collects its output. */
export function harness(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    CODEX_HOME: join(isolatedHomes, 'codex'),
    HARNESS_HOME: join(isolatedHomes, 'harness'),
    CLAUDE_CONFIG_DIR: join(isolatedHomes, 'claude'),
    ...options.env,
  }
  delete env.FORCE_COLOR
  if (!options.env?.HARNESS_MODEL) delete env.HARNESS_MODEL
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  child.stdin.end(options.input ?? '')
  options.onSpawn?.(child)
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }))
  })
}

export function sessionsIn(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.slice(0, -'.jsonl'.length))
}

export function readEvents(file: string): SessionEvent[] {
  return readJsonLines(file) as SessionEvent[]
}

export function readJsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown)
}

/** A script that runs `echo hello from shell`, then answers. */
export const SHELL_SCRIPT = `steps:
  - text: Let me check.
    tool_calls:
      - name: shell
        input: { command: "echo hello from shell" }
  - text: |-
      All done.
      The shell said hello.
`
