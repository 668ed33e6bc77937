import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CanUseTool, type PermissionMode, type Query, query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import { type FakeAnthropic, type FakeModelServerOptions, startFakeAnthropic, waitUntil } from '@harness-kernel/testing'
import { claudeExecutable, isolatedClaudeEnv } from './claude-env.js'
import { hookRecorded, type RecordedHookCall, recordedCalls } from './hook-recorder.js'

type SdkMessage = { type: string; subtype?: string; [key: string]: unknown }

/**
 * The real Claude Code through the Agent SDK's `query()`, running the command hooks of its project's
 * `.claude/settings.json` (`settingSources: ['project']`) against a fake Messages API, in a temp folder of its own.
 * The hooks record under `out` and reply from `responses` (the dialect's recorder); SDK messages are kept in order.
 */
import { InputQueue } from './input-queue.js'

export class ClaudeHooksSession {
  readonly messages: SdkMessage[] = []
  readonly server: FakeAnthropic
  readonly dir: string
  readonly project: string
  readonly out: string
  readonly responses: string
  readonly #query: Query
  readonly #input = new InputQueue<SDKUserMessage>()
  readonly #waiters = new Set<() => void>()
  readonly #pump: Promise<void>

  static async start(options: {
    server: FakeModelServerOptions
    hooks: Record<string, unknown>
    responses?: Record<string, string>
    tools?: string[]
    permissionMode?: PermissionMode
    canUseTool?: CanUseTool
  }): Promise<ClaudeHooksSession> {
    return new ClaudeHooksSession(await startFakeAnthropic(options.server), options)
  }

  private constructor(
    server: FakeAnthropic,
    options: {
      hooks: Record<string, unknown>
      responses?: Record<string, string>
      tools?: string[]
      permissionMode?: PermissionMode
      canUseTool?: CanUseTool
    },
  ) {
    this.server = server
    this.dir = mkdtempSync(join(tmpdir(), 'hk-cc-hooks-'))
    this.project = join(this.dir, 'project')
    this.out = join(this.dir, 'out')
    this.responses = join(this.dir, 'responses')
    for (const folder of [join(this.project, '.claude'), this.out, this.responses]) mkdirSync(folder, { recursive: true })
    writeFileSync(join(this.project, '.claude', 'settings.json'), JSON.stringify({ hooks: options.hooks }))
    for (const [name, content] of Object.entries(options.responses ?? {})) writeFileSync(join(this.responses, name), content)
    const tools = options.tools ?? []
    const permissionMode = options.permissionMode ?? 'bypassPermissions'
    const bypass = permissionMode === 'bypassPermissions'
    this.#query = query({
      prompt: this.#input,
      options: {
        cwd: this.project,
        env: { ...isolatedClaudeEnv({ baseUrl: server.url, dir: this.dir }), HOOK_OUT: this.out, HOOK_RESP: this.responses },
        pathToClaudeCodeExecutable: claudeExecutable(),
        tools,
        allowedTools: bypass ? tools : [],
        settingSources: ['project'],
        permissionMode,
        ...(bypass ? { allowDangerouslySkipPermissions: true } : {}),
        ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
      },
    })
    this.#pump = this.#drain()
  }

  send(text: string): void {
    this.#input.push({
      type: 'user',
      message: { role: 'user', content: text },
      parent_tool_use_id: null,
      uuid: randomUUID(),
    } as SDKUserMessage)
  }

  interrupt(): Promise<unknown> {
    return this.#query.interrupt()
  }

  /** The `n`th result (from 1), once it arrived. */
  result(n: number): Promise<SdkMessage> {
    return new Promise((resolve) => {
      const check = () => {
        const result = this.messages.filter((message) => message.type === 'result')[n - 1]
        if (result === undefined) return
        this.#waiters.delete(check)
        resolve(result)
      }
      this.#waiters.add(check)
      check()
    })
  }

  /** Resolves once a call of `event`/`tag` has been recorded. */
  hookCalled(event: string, tag = 'main'): Promise<true> {
    return waitUntil(() => hookRecorded(this.out, event, tag), `${event}/${tag} to run`, { boundMs: 30_000 })
  }

  calls(event?: string): RecordedHookCall[] {
    return recordedCalls(this.out, event)
  }

  /** Ends the input, waits for the SDK stream and Claude Code to finish (SessionEnd has run), then cleans up. */
  async close(): Promise<void> {
    this.#input.end()
    const exited = await Promise.race([
      this.#pump.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ])
    if (!exited) this.#query.close()
    await this.server.close()
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }

  async #drain(): Promise<void> {
    try {
      for await (const message of this.#query as AsyncIterable<SdkMessage>) {
        this.messages.push(message)
        for (const waiter of [...this.#waiters]) waiter()
      }
    } catch {
      // Claude Code ended with an error exit (a hook killed at its end, say): what the test needs was recorded before.
    }
  }
}
