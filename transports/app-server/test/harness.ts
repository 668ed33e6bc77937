import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, type AppServerClientOptions } from '../src/client.js'
import { codexSchema } from './support/codex-schema.js'

const fixture = fileURLToPath(new URL('./fixtures/server.mjs', import.meta.url))

export interface ScriptStep {
  text?: string
  tool_calls?: { name: string; input: unknown; id?: string }[]
  error?: { message: string; retryable: boolean }
}

export interface TestServer {
  client: AppServerClient
  dir: string
  script: string
  record: string
  /** The model requests so far: `{n, sessionId, turnId, step, attempt, request:{messages}}`. */
  requests(): RecordedRequest[]
  restart(options?: AppServerClientOptions): TestServer
}

export interface RecordedRequest {
  n: number
  sessionId: string
  turnId: string
  step: number
  attempt: number
  request: { messages: { role: string; content: { type: string; text?: string }[]; source: { kind: string } }[] }
}

/**
 * Spawns the real server (`test/fixtures/server.mjs` over `dist/`) in a fresh directory with a script. Every message
 * it sends is checked against Codex's schema (`codexSchema`; each test file asserts no failures after each test).
 */
export function startServer(steps: ScriptStep[], options: AppServerClientOptions & { args?: string[]; dir?: string } = {}): TestServer {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'app-server-'))
  const script = join(dir, 'script.json')
  const record = join(dir, 'requests.jsonl')
  writeFileSync(script, JSON.stringify({ steps }))
  const spawnIt = (clientOptions: AppServerClientOptions): TestServer => {
    const client = AppServerClient.spawn(
      process.execPath,
      [fixture, '--script', script, '--cwd', dir, '--record', record, ...(options.args ?? [])],
      { onReceive: codexSchema.onReceive, ...clientOptions, cwd: dir, stderr: 'pipe' },
    )
    return {
      client,
      dir,
      script,
      record,
      requests: () => {
        let text = ''
        try {
          text = readFileSync(record, 'utf8')
        } catch {
          return []
        }
        return text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as RecordedRequest)
      },
      restart: (next = {}) => spawnIt(next),
    }
  }
  return spawnIt(options)
}

export const text = (message: { content: { type: string; text?: string }[] }) =>
  message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')

export const userItem = (value: string) => ({
  role: 'user' as const,
  authority: 'user' as const,
  content: [{ type: 'text' as const, text: value, text_elements: [] }],
})
export const hostItem = (value: string) => ({
  role: 'developer' as const,
  authority: 'host' as const,
  content: [{ type: 'text' as const, text: value, text_elements: [] }],
})

export const methods = (client: AppServerClient) =>
  client.received.map((message) => (message.method as string | undefined) ?? `response:${String(message.id)}`)

/** A step calling the fixture's `wait` tool, which finishes once the file `name` exists in the server's directory. */
export const toolHeldUntil = (name: string): ScriptStep => ({ tool_calls: [{ name: 'wait', input: { until: name } }] })

/** A step whose tool call runs until the turn is interrupted (nothing creates the file it waits for). */
export const toolHeldUntilInterrupted: ScriptStep = toolHeldUntil('never')

/** Lets a `toolHeldUntil(name)` tool call finish. */
export function release(server: TestServer, name: string): void {
  writeFileSync(join(server.dir, name), '')
}

export { waitUntil } from '@harness-kernel/testing'
