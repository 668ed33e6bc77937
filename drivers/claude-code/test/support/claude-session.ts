import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type HookCallbackMatcher,
  type HookEvent,
  type Options,
  type Query,
  query,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk'
import { type FakeAnthropic, type FakeModelServerOptions, startFakeAnthropic } from '@harness-kernel/testing'
import { claudeExecutable, isolatedClaudeEnv } from './claude-env.js'

/** What a session saw, in the order it arrived: SDK messages, lifecycle frames, and the hook callbacks it was asked. */
import { InputQueue } from './input-queue.js'

export type Seen =
  | { kind: 'message'; message: { type: string; subtype?: string; [key: string]: unknown } }
  | { kind: 'frame'; uuid: string; state: string; idle?: boolean }
  | { kind: 'hook'; event: string; input: Record<string, unknown> }

/** A hook callback of the test's: its answer to Claude Code (default `{}`). */
export type HookAnswer = (input: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>

/**
 * The real Claude Code through the Agent SDK's `query()`, with one input that stays open, against a fake Messages API,
 * in a temp folder of its own. Everything it reports is kept in `seen`; `until` waits for what a test expects next.
 */
export class ClaudeSession {
  readonly seen: Seen[] = []
  readonly server: FakeAnthropic
  readonly #dir: string
  readonly #query: Query
  readonly #input = new InputQueue<SDKUserMessage>()
  readonly #waiters = new Set<() => void>()
  readonly #pump: Promise<void>

  static async start(options: {
    server: FakeModelServerOptions
    hooks?: Partial<Record<HookEvent, HookAnswer>>
    builtinTools?: string[]
  }): Promise<ClaudeSession> {
    return new ClaudeSession(await startFakeAnthropic(options.server), options)
  }

  private constructor(server: FakeAnthropic, options: { hooks?: Partial<Record<HookEvent, HookAnswer>>; builtinTools?: string[] }) {
    this.server = server
    this.#dir = mkdtempSync(join(tmpdir(), 'hk-cc-queued-'))
    const cwd = join(this.#dir, 'project')
    mkdirSync(cwd)
    const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {}
    for (const [event, answer] of Object.entries(options.hooks ?? {}) as [HookEvent, HookAnswer][]) {
      hooks[event] = [
        {
          hooks: [
            async (input) => {
              this.#note({ kind: 'hook', event, input: input as unknown as Record<string, unknown> })
              return answer(input as unknown as Record<string, unknown>)
            },
          ],
        },
      ]
    }
    const queryOptions: Options = {
      cwd,
      env: isolatedClaudeEnv({ baseUrl: server.url, dir: this.#dir }),
      pathToClaudeCodeExecutable: claudeExecutable(),
      tools: options.builtinTools ?? [],
      allowedTools: options.builtinTools ?? [],
      settingSources: [],
      permissionMode: 'default',
      hooks,
    }
    this.#query = query({ prompt: this.#input, options: queryOptions })
    this.#pump = this.#drain()
  }

  /** Sends a user message (`priority` as given); returns its uuid. */
  send(text: string, priority?: 'next'): string {
    const uuid = randomUUID()
    this.#input.push({
      type: 'user',
      message: { role: 'user', content: text },
      parent_tool_use_id: null,
      uuid,
      ...(priority ? { priority } : {}),
    } as SDKUserMessage)
    return uuid
  }

  cancel(uuid: string): Promise<boolean> {
    return (this.#query as unknown as { cancelAsyncMessage(uuid: string): Promise<boolean> }).cancelAsyncMessage(uuid)
  }

  interrupt(): Promise<unknown> {
    return (this.#query as unknown as { interrupt(options: { cancelQueued: boolean }): Promise<unknown> }).interrupt({ cancelQueued: true })
  }

  /** Resolves with the index of the first entry from `from` on that `matches`, once it has arrived. */
  until(matches: (seen: Seen) => boolean, from = 0): Promise<number> {
    return new Promise((resolve) => {
      const check = () => {
        const index = this.seen.findIndex((seen, i) => i >= from && matches(seen))
        if (index < 0) return
        this.#waiters.delete(check)
        resolve(index)
      }
      this.#waiters.add(check)
      check()
    })
  }

  /** The `n`th result (from 1), once it arrived. */
  async result(n: number): Promise<{ index: number; result: Record<string, unknown> }> {
    let index = -1
    for (let i = 0; i < n; i++) index = await this.until(isResult, index + 1)
    const entry = this.seen[index] as Extract<Seen, { kind: 'message' }>
    return { index, result: entry.message }
  }

  /** The index of the lifecycle frame `state` of message `uuid`, once it arrived. */
  frame(uuid: string, state: string): Promise<number> {
    return this.until((seen) => seen.kind === 'frame' && seen.uuid === uuid && seen.state === state)
  }

  /** The index of the `n`th call (from 1) of a hook event. */
  async hook(event: string, n = 1): Promise<number> {
    let index = -1
    for (let i = 0; i < n; i++) index = await this.until((seen) => seen.kind === 'hook' && seen.event === event, index + 1)
    return index
  }

  count(matches: (seen: Seen) => boolean): number {
    return this.seen.filter(matches).length
  }

  async close(): Promise<void> {
    this.#input.end()
    const exited = await Promise.race([
      this.#pump.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ])
    if (!exited) this.#query.close()
    await this.server.close()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  async #drain(): Promise<void> {
    try {
      for await (const message of this.#query as AsyncIterable<{ type: string; [key: string]: unknown }>) {
        if (message.type === 'command_lifecycle') {
          this.#note({
            kind: 'frame',
            uuid: String(message.command_uuid),
            state: String(message.state),
            ...(message.idle === undefined ? {} : { idle: message.idle === true }),
          })
        } else this.#note({ kind: 'message', message })
      }
    } catch {
      // Closed by the test.
    }
  }

  #note(seen: Seen): void {
    this.seen.push(seen)
    for (const waiter of [...this.#waiters]) waiter()
  }
}

export const isResult = (seen: Seen): boolean => seen.kind === 'message' && seen.message.type === 'result'
