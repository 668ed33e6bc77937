import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { HookCallbackMatcher, HookEvent, Options, Query, query, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import type { DriverSession, DriverSessionContext, Message, TurnEnd, TurnHost, TurnRequest } from '@harness-kernel/kernel'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { builtinToolHooks } from './builtin-tools.js'
import { ClaudeCodeTurn } from './claude-code-turn.js'
import { claudeExecutable } from './claude-executable.js'
import { blockedPromptOf, CommandLifecycle, isLifecycleFrame } from './command-lifecycle.js'
import { messageText, reminder } from './content.js'
import { type HostToolCall, hostToolName, hostToolServer } from './host-tools.js'
import { InputStream } from './input-stream.js'
import { serversNotAppliedMessage, serversSentAtInitialize, tooOldMessage } from './mcp-delivery.js'
import { type ClaudeCodeDriverOptions, DEFAULT_ADMISSION_TIMEOUT_MS } from './options.js'
import { TailBuffer } from './tail-buffer.js'

interface SdkMessage {
  type: string
  subtype?: string
  session_id?: string
  [key: string]: unknown
}

const COST_FILE = 'claude-code-cost.json'

/** One kernel session inside one Claude Code process: one `query()` with one input that stays open. */
export class ClaudeCodeSession implements DriverSession {
  readonly #context: DriverSessionContext
  readonly #options: ClaudeCodeDriverOptions
  /** The running process's input; a process started after an exit gets a new one. */
  #input = new InputStream()
  readonly #sent: SDKUserMessage[] = []
  readonly #lifecycle = new CommandLifecycle()
  readonly #stderr = new TailBuffer()
  #query: Query | undefined
  #pump: Promise<void> | undefined
  #turn: ClaudeCodeTurn | undefined
  #nativeId: string | undefined
  #closed = false
  /** Until the first turn of a process has checked it: what refuses to run without the user's MCP servers. */
  #serversChecked: Promise<string | undefined> | undefined
  /** Why the last process ended, for a turn that was waiting for it to start. */
  #exit: string | undefined
  /** Claude Code's running `total_cost_usd` at its last result (kept in the state folder: a resumed session goes on from it). */
  #costTotal: number | undefined

  readonly #run: typeof query

  constructor(context: DriverSessionContext, options: ClaudeCodeDriverOptions, run: typeof query) {
    this.#context = context
    this.#options = options
    this.#run = run
    this.#nativeId = context.nativeId
  }

  /** Everything submitted to Claude Code, in order. */
  get sent(): readonly SDKUserMessage[] {
    return this.#sent
  }

  async runTurn({ input }: TurnRequest, host: TurnHost): Promise<TurnEnd> {
    if (this.#closed) throw new Error('the Claude Code session is closed')
    const halt = host.takeSessionHalt()
    if (halt) {
      host.notice('warning', `turn halted: ${halt.reason}`)
      return { status: 'halted', reason: halt.reason }
    }
    // Queued input always joins the turn's prompt: Claude Code has no later boundary before its first request.
    const claimed = await host.claim({ kind: 'sampling', step: 1 })
    const messages = [...input, ...claimed.messages]
    if (messages.length === 0) {
      claimed.settle()
      return { status: 'completed' }
    }
    const entry = await host.enter({ step: 1, messages, claimed })
    host.signal.throwIfAborted()
    entry.record()
    if (entry.halt) {
      host.notice('warning', `turn halted: ${entry.halt.reason}`)
      return { status: 'halted', reason: entry.halt.reason }
    }
    const prompt = entry.messages.filter((message) => message.role === 'user')
    if (prompt.length === 0) {
      const reason = entry.rejected ? entry.rejected.reason : 'every input item was dropped by agent/pre-step'
      if (reason) host.notice('warning', `turn blocked: ${reason}`)
      return { status: 'blocked', ...(reason === undefined ? {} : { reason }) }
    }
    const query = this.#start(host)
    const refused = await this.#serversLoaded()
    if (refused !== undefined) {
      // Never a turn without the servers the user gave: the process goes, and the next turn starts a new one.
      this.#stop(query)
      return { status: 'failed', error: { code: 'spawn', message: refused, retryable: false } }
    }
    if (this.#query !== query)
      return { status: 'failed', error: { code: 'spawn', message: this.#exit ?? 'Claude Code ended the session', retryable: true } }
    // Interrupted while the prompt was being decided: nothing reaches Claude Code.
    host.signal.throwIfAborted()
    const turn = new ClaudeCodeTurn(host, {
      submit: (message) => this.#submit(message),
      lifecycle: this.#lifecycle,
      cancel: (uuid) => this.#cancel(uuid),
      admissionTimeoutMs: this.#options.admissionTimeoutMs ?? DEFAULT_ADMISSION_TIMEOUT_MS,
      interrupt: () => this.#interrupt(),
      programCost: (total) => this.#programCost(total),
    })
    this.#turn = turn
    try {
      turn.prompt({
        type: 'user',
        message: { role: 'user', content: promptContent(prompt, [...entry.context, ...entry.messages.filter((m) => m.role !== 'user')]) },
        parent_tool_use_id: null,
        uuid: randomUUID(),
      } as SDKUserMessage)
      return await turn.finished
    } finally {
      this.#turn = undefined
    }
  }

  /**
   * What Claude Code spent since its last result: its `total_cost_usd` is a running total for the process (each result
   * carries the sum so far), and a resumed process goes on from the total its transcript saved. A total below the last
   * one means the count started again: all of it is new.
   */
  #programCost(total: number): number {
    const before = this.#costTotal ?? this.#savedCostTotal()
    this.#costTotal = total
    try {
      mkdirSync(this.#context.stateDir, { recursive: true })
      writeFileSync(join(this.#context.stateDir, COST_FILE), JSON.stringify({ totalCostUsd: total }))
    } catch (error) {
      this.#context.logger.warn(`could not keep Claude Code's running cost in ${this.#context.stateDir}: ${errorText(error)}`)
    }
    return total >= before ? total - before : total
  }

  #savedCostTotal(): number {
    try {
      const saved = JSON.parse(readFileSync(join(this.#context.stateDir, COST_FILE), 'utf8')) as { totalCostUsd?: unknown }
      return typeof saved.totalCostUsd === 'number' ? saved.totalCostUsd : 0
    } catch {
      return 0
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#input.end()
    const pump = this.#pump
    if (!pump) return
    const exited = await Promise.race([
      pump.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
    ])
    if (!exited) this.#query?.close()
  }

  /** Starts Claude Code at the first turn (and again after it exited, resuming its session). */
  #start(host: TurnHost): Query {
    if (this.#query) return this.#query
    const executable = this.#options.executable ?? claudeExecutable()
    if (!existsSync(executable)) throw new Error(`Claude Code is not installed at ${executable} (the driver's \`executable\` option)`)
    this.#input = new InputStream()
    const options = this.#queryOptions(host, executable)
    const servers = serversSentAtInitialize(this.#options.queryOptions ?? {})
    const query = this.#run({ prompt: this.#input, options })
    this.#query = query
    this.#exit = undefined
    this.#serversChecked = servers.length > 0 ? serversApplied(query, servers, executable) : undefined
    this.#pump = this.#drain(query, servers, executable)
    return query
  }

  /** Resolves with the reason not to run when Claude Code did not load the user's MCP servers (checked once a process). */
  async #serversLoaded(): Promise<string | undefined> {
    const checked = this.#serversChecked
    this.#serversChecked = undefined
    return checked
  }

  /** Ends a process the session gives up on; its end is no turn's failure. */
  #stop(query: Query): void {
    if (this.#query === query) this.#query = undefined
    this.#input.end()
    query.close()
  }

  async #drain(query: Query, servers: readonly string[], executable: string): Promise<void> {
    let failure: string | undefined
    try {
      for await (const message of query as AsyncIterable<SdkMessage>) this.#dispatch(message)
      if (!this.#closed) failure = 'Claude Code ended the session'
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      failure = tooOldMessage(reason, servers, executable) ?? `Claude Code exited: ${reason}`
    }
    // A process the session stopped itself ends no turn.
    if (this.#query !== query) return
    this.#query = undefined
    if (failure === undefined) return
    const stderr = this.#stderr.toString()
    const message = stderr && !failure.includes(stderr) ? `${failure}; its stderr ends: ${stderr}` : failure
    this.#exit = message
    this.#turn?.fail({ code: 'transport', message, retryable: true })
  }

  #dispatch(message: SdkMessage): void {
    if (message.type === 'system' && message.subtype === 'init' && typeof message.session_id === 'string') {
      this.#nativeId = message.session_id
      this.#lifecycle.advertise(message.capabilities)
      this.#turn?.host.recordNativeId(message.session_id)
      return
    }
    if (isLifecycleFrame(message)) {
      this.#lifecycle.observe(message)
      this.#turn?.onLifecycle(message)
      return
    }
    const blocked = blockedPromptOf(message)
    if (blocked) {
      this.#turn?.steering.blocked(blocked)
      return
    }
    this.#turn?.onMessage(message)
  }

  #submit(message: SDKUserMessage): void {
    this.#sent.push(message)
    this.#input.push(message)
  }

  async #cancel(uuid: string): Promise<boolean> {
    const query = this.#query as (Query & { cancelAsyncMessage?: (uuid: string) => Promise<boolean> }) | undefined
    // The process is gone: it holds nothing that could still run.
    if (!query) return true
    try {
      return (await query?.cancelAsyncMessage?.(uuid)) === true
    } catch {
      return false
    }
  }

  /** Never a plain interrupt: queued messages would start a turn by themselves. */
  async #interrupt(): Promise<readonly string[]> {
    const query = this.#query as { interrupt(options: { cancelQueued: boolean }): Promise<unknown> } | undefined
    const receipt = (await query?.interrupt({ cancelQueued: true }).catch(() => undefined)) as { cancelled?: unknown } | undefined
    return Array.isArray(receipt?.cancelled) ? (receipt.cancelled as string[]) : []
  }

  #queryOptions(host: TurnHost, executable: string): Options {
    const own = this.#options
    const extra = own.queryOptions ?? {}
    const tools = host.tools
    const system = own.systemPrompt ?? this.#context.system
    const builtins = (own.builtinTools ?? []).length > 0
    const hooks = mergeHooks(extra.hooks, {
      Stop: [{ hooks: [(input) => this.#turn?.onStop(input as { stop_hook_active?: boolean }) ?? Promise.resolve({})] }],
      ...builtinToolHooks(() => this.#turn),
    })
    return {
      ...extra,
      cwd: this.#context.cwd,
      env: this.#env(host),
      pathToClaudeCodeExecutable: executable,
      tools: own.builtinTools ?? [],
      mcpServers: { ...extra.mcpServers, host: hostToolServer(tools, (call) => this.#callTool(call)) },
      // With built-ins on, `canUseTool` allows the kernel's tools itself: listing them here as well would shadow it.
      allowedTools: [
        ...(builtins ? [] : tools.map((tool) => hostToolName(tool.name))),
        ...(own.allowedBuiltinTools ?? []),
        ...(extra.allowedTools ?? []),
      ],
      settingSources: extra.settingSources ?? [],
      permissionMode: own.permissionMode ?? extra.permissionMode ?? 'default',
      // Only built-ins ask: the kernel's own tools are pre-allowed (their permission runs inside the handler).
      ...(builtins
        ? {
            canUseTool: (name: string, input: Record<string, unknown>, { toolUseID }: { toolUseID: string }) =>
              this.#turn?.canUseTool(name, input, toolUseID) ??
              Promise.resolve({ behavior: 'deny' as const, message: 'no kernel turn is running' }),
          }
        : {}),
      hooks,
      stderr: (chunk: string) => this.#stderr.write(chunk),
      ...(own.model === undefined ? {} : { model: own.model }),
      ...(system === undefined ? {} : { systemPrompt: system }),
      // Stream events carry each response's final output count (Claude Code's assistant messages repeat its first).
      includePartialMessages: true,
      ...(this.#nativeId === undefined ? {} : { resume: this.#nativeId }),
    }
  }

  #env(host: TurnHost): Record<string, string> {
    const env: Record<string, string> = {}
    const own = this.#options.environment?.(host.session)
    for (const [key, value] of Object.entries({ ...process.env, ...this.#options.env, ...own })) if (value !== undefined) env[key] = value
    const configDir = this.#options.configDir ?? 'isolated'
    if (configDir !== 'user') {
      const dir = configDir === 'isolated' ? join(this.#context.stateDir, 'config') : configDir
      mkdirSync(dir, { recursive: true })
      env.CLAUDE_CONFIG_DIR = dir
    }
    return env
  }

  async #callTool(call: HostToolCall): Promise<CallToolResult> {
    const turn = this.#turn
    if (!turn) return { content: [{ type: 'text', text: 'No kernel turn is running; the call was not run.' }], isError: true }
    return turn.callTool(call)
  }
}

/** What the Agent SDK's initialize answer says of the servers it sent; a startup failure is the pump's to report. */
async function serversApplied(query: Query, servers: readonly string[], executable: string): Promise<string | undefined> {
  const init = (query as Partial<Pick<Query, 'initializationResult'>>).initializationResult
  if (typeof init !== 'function') return undefined
  const result = await init.call(query).catch(() => undefined)
  return result?.mcp_servers_applied === false ? serversNotAppliedMessage(servers, executable) : undefined
}

function promptContent(prompt: readonly Message[], context: readonly Message[]): string | { type: 'text'; text: string }[] {
  if (prompt.length === 1 && context.length === 0) return messageText(prompt[0] as Message)
  return [
    ...prompt.map((message) => ({ type: 'text' as const, text: messageText(message) })),
    ...context.map((message) => ({ type: 'text' as const, text: reminder(message) })),
  ]
}

function mergeHooks(
  theirs: Partial<Record<HookEvent, HookCallbackMatcher[]>> | undefined,
  ours: Partial<Record<HookEvent, HookCallbackMatcher[]>>,
): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const merged: Partial<Record<HookEvent, HookCallbackMatcher[]>> = { ...theirs }
  for (const [event, matchers] of Object.entries(ours) as [HookEvent, HookCallbackMatcher[]][]) {
    merged[event] = [...(merged[event] ?? []), ...matchers]
  }
  return merged
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
