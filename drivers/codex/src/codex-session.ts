import {
  type ApprovalPolicy,
  DEFAULT_GUARDRAILS_POLICY,
  type DriverSession,
  type DriverSessionContext,
  sandboxModeOf,
  type TurnEnd,
  type TurnHost,
  type TurnRequest,
} from '@harness-kernel/kernel'
import { AppServerProcess } from './app-server-process.js'
import { codexExecutable } from './codex-executable.js'
import { prepareCodexHome } from './codex-home.js'
import { CodexTurn } from './codex-turn.js'
import { dynamicTools, UNINTERCEPTABLE_BUILTINS } from './dynamic-tools.js'
import type { Notification, ServerRequest } from './json-rpc-connection.js'
import { type CodexDriverOptions, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_STEER_TIMEOUT_MS } from './options.js'
import { clientIdOf, contextItems, userInputs } from './user-input.js'
import type { ApprovalParams, ToolCallParams } from './wire.js'

const NOTICE_METHODS = new Set(['warning', 'configWarning', 'deprecationNotice'])

/** One kernel session inside one `codex app-server` process and one Codex thread. */
export class CodexSession implements DriverSession {
  readonly #context: DriverSessionContext
  readonly #options: CodexDriverOptions
  #server: AppServerProcess | undefined
  #threadId: string | undefined
  #threadLoaded = false
  /** The thread's model as Codex names it: from `thread/start` or `thread/resume`, then `model/rerouted`. */
  #model: string | undefined
  #turn: CodexTurn | undefined
  /** Codex's warnings while no turn runs, told at the next turn. */
  readonly #held: string[] = []
  #closed = false

  constructor(context: DriverSessionContext, options: CodexDriverOptions) {
    this.#context = context
    this.#options = options
    this.#threadId = context.nativeId
  }

  /** The Codex thread (the native session id), once started or resumed. */
  get threadId(): string | undefined {
    return this.#threadId
  }

  /** The app server's process id while it runs. */
  get pid(): number | undefined {
    return this.#server?.pid
  }

  async runTurn({ input }: TurnRequest, host: TurnHost): Promise<TurnEnd> {
    if (this.#closed) throw new Error('the Codex session is closed')
    for (const text of this.#held.splice(0)) host.notice('warning', text)
    const halt = host.takeSessionHalt()
    if (halt) {
      host.notice('warning', `turn halted: ${halt.reason}`)
      return { status: 'halted', reason: halt.reason }
    }
    const claimed = await host.claim({ kind: 'sampling', step: 1 })
    const messages = [...input, ...claimed.messages]
    if (messages.length === 0) {
      claimed.settle()
      return { status: 'completed' }
    }
    const entry = await host.enter({ step: 1, messages, claimed })
    host.signal.throwIfAborted()
    if (entry.halt) {
      entry.record()
      host.notice('warning', `turn halted: ${entry.halt.reason}`)
      return { status: 'halted', reason: entry.halt.reason }
    }
    const prompt = entry.messages.filter((message) => message.role === 'user')
    if (prompt.length === 0) {
      entry.record()
      const reason = entry.rejected ? entry.rejected.reason : 'every input item was dropped by agent/pre-step'
      if (reason) host.notice('warning', `turn blocked: ${reason}`)
      return { status: 'blocked', ...(reason === undefined ? {} : { reason }) }
    }
    const { server, threadId } = await this.#thread(host)
    host.signal.throwIfAborted()
    const turn = new CodexTurn(host, {
      connection: server.connection,
      threadId,
      steerTimeoutMs: this.#steerTimeoutMs,
      model: () => this.#model,
    })
    this.#turn = turn
    try {
      const context = [...entry.context, ...entry.messages.filter((message) => message.role !== 'user')]
      if (context.length > 0) await server.connection.request('thread/inject_items', { threadId, items: contextItems(context) })
      const clientId = clientIdOf(prompt)
      turn.receipts.expect(clientId, entry, 'prompt')
      let started: { turn: { id: string } }
      try {
        started = (await server.connection.request(
          'turn/start',
          { threadId, input: userInputs(prompt), clientUserMessageId: clientId, ...this.#turnPolicy() },
          this.#requestTimeoutMs,
        )) as { turn: { id: string } }
      } catch (error) {
        turn.receipts.returned(clientId)
        throw error
      }
      turn.named(started.turn.id)
      turn.steering.start()
      return await turn.finished
    } finally {
      this.#turn = undefined
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const server = this.#server
    this.#server = undefined
    await server?.close()
  }

  get #steerTimeoutMs(): number {
    return this.#options.steerTimeoutMs ?? DEFAULT_STEER_TIMEOUT_MS
  }

  get #requestTimeoutMs(): number {
    return this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  }

  /** The app server and the loaded thread: started at the first turn, and again (resumed) after Codex exited. */
  async #thread(host: TurnHost): Promise<{ server: AppServerProcess; threadId: string }> {
    let server = this.#server
    if (!server || server.connection.closed) {
      server = await this.#start()
      this.#server = server
      this.#threadLoaded = false
    }
    if (this.#threadLoaded && this.#threadId) return { server, threadId: this.#threadId }
    const settings = this.#threadSettings()
    if (this.#threadId) {
      const result = (await server.connection
        .request('thread/resume', { threadId: this.#threadId, ...settings, excludeTurns: true }, this.#requestTimeoutMs)
        .catch((error: unknown) => {
          throw new Error(`Codex could not resume thread ${this.#threadId}: ${error instanceof Error ? error.message : String(error)}`)
        })) as { model?: unknown }
      this.#model = typeof result?.model === 'string' ? result.model : this.#model
    } else {
      const result = (await server.connection
        .request('thread/start', { ...settings, dynamicTools: dynamicTools(host.tools) }, this.#requestTimeoutMs)
        .catch((error: unknown) => {
          throw new Error(`Codex refused to start the thread: ${error instanceof Error ? error.message : String(error)}`)
        })) as { thread: { id: string }; model?: unknown }
      this.#model = typeof result.model === 'string' ? result.model : undefined
      this.#threadId = result.thread.id
      host.recordNativeId(result.thread.id)
      host.notice('info', builtinsNotice(this.#options))
    }
    this.#threadLoaded = true
    return { server, threadId: this.#threadId }
  }

  async #start(): Promise<AppServerProcess> {
    const executable = this.#options.executable ?? codexExecutable()
    const home = prepareCodexHome(this.#options, this.#context.stateDir)
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries({ ...process.env, ...this.#options.env })) if (value !== undefined) env[key] = value
    if (home !== undefined) env.CODEX_HOME = home
    let server: AppServerProcess | undefined
    server = await AppServerProcess.start({
      executable,
      cwd: this.#context.cwd,
      env,
      timeoutMs: this.#requestTimeoutMs,
      handlers: {
        notification: (message) => this.#notification(message),
        request: (message) => this.#request(message),
        garbage: (line) => this.#warn(`codex app-server printed a line that is not JSON-RPC (skipped): ${line.slice(0, 200)}`),
        ...(this.#options.onProtocolMessage ? { trace: this.#options.onProtocolMessage } : {}),
      },
      exited: (reason) => {
        if (server && this.#server === server) this.#server = undefined
        if (!this.#closed) this.#turn?.fail({ code: 'transport', message: reason, retryable: true })
      },
    })
    return server
  }

  #threadSettings(): Record<string, unknown> {
    const own = this.#options
    const system = this.#context.system
    return {
      cwd: this.#context.cwd,
      approvalPolicy: own.approvalPolicy ?? codexApprovalPolicy(this.#context.guardrails?.policy.approval) ?? 'never',
      sandbox: own.sandbox ?? sandboxModeOf(this.#context.guardrails?.policy.sandbox ?? DEFAULT_GUARDRAILS_POLICY.sandbox),
      config: {
        'features.shell_tool': own.builtinTools?.shell ?? false,
        'features.multi_agent': own.builtinTools?.multiAgent ?? false,
        ...own.config,
      },
      ...(own.model === undefined ? {} : { model: own.model }),
      ...(system === undefined ? {} : { developerInstructions: system }),
    }
  }

  /**
   * The session's policy as it is now, for each `turn/start` (it sticks in Codex too): Codex's built-in commands run
   * under the same sandbox as the kernel's tools, unless the driver's own options name one.
   */
  #turnPolicy(): Record<string, unknown> {
    const policy = this.#context.guardrails?.policy
    if (policy === undefined) return {}
    const approval = codexApprovalPolicy(policy.approval)
    return {
      ...(this.#options.sandbox === undefined ? { sandboxPolicy: policy.sandbox } : {}),
      ...(this.#options.approvalPolicy === undefined && approval !== undefined ? { approvalPolicy: approval } : {}),
    }
  }

  #notification({ method, params }: Notification): void {
    if (NOTICE_METHODS.has(method)) {
      const text = (params.message ?? params.summary) as string | undefined
      if (text) this.#warn(`Codex: ${text}`)
      return
    }
    if (typeof params.threadId === 'string' && params.threadId !== this.#threadId) return
    if (method === 'model/rerouted' && typeof params.toModel === 'string') this.#model = params.toModel
    this.#turn?.onNotification(method, params)
  }

  async #request({ method, params }: ServerRequest): Promise<unknown> {
    const turn = this.#turn
    if (!turn) throw { rpc: { code: -32603, message: `no kernel turn is running to answer ${method}` } }
    if (method === 'item/tool/call') return turn.toolCall(params as unknown as ToolCallParams)
    if (method === 'item/commandExecution/requestApproval') return turn.approval('commandExecution', params as unknown as ApprovalParams)
    if (method === 'item/fileChange/requestApproval') return turn.approval('fileChange', params as unknown as ApprovalParams)
    throw { rpc: { code: -32601, message: `the harness-kernel Codex driver does not answer ${method}` } }
  }

  #warn(text: string): void {
    if (this.#turn) this.#turn.host.notice('warning', text)
    else this.#held.push(text)
  }
}

function builtinsNotice(options: CodexDriverOptions): string {
  const kept: string[] = [...UNINTERCEPTABLE_BUILTINS]
  if (options.builtinTools?.multiAgent) kept.push('multi_agent_v1')
  const shell = options.builtinTools?.shell
    ? ' exec_command and write_stdin run in its sandbox: only the commands that ask to escalate reach tools/permission-request.'
    : ''
  return `Codex keeps built-in tools the kernel cannot intercept: ${kept.join(', ')}.${shell}`
}

/** The kernel's approval policy as Codex's App Server takes it (`on-failure` is not in its v2 schema). */
function codexApprovalPolicy(policy: ApprovalPolicy | undefined): unknown {
  if (policy === undefined) return undefined
  return policy === 'on-failure' ? 'on-request' : policy
}
