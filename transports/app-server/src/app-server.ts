import { arch, release, type } from 'node:os'
import type { BoundaryKind, Driver, GuardrailsPolicy, Kernel, Message, Session } from '@harness-kernel/kernel'
import { checkApprovalPolicy, checkSandboxPolicy, DEFAULT_GUARDRAILS_POLICY, errorMessage } from '@harness-kernel/kernel'
import type { z } from 'zod'
import { AppThread, type SteerOnTurnEnd } from './app-thread.js'
import { AppServerBridge, type KernelFactory } from './bridge.js'
import { applyPolicy, checkExperimentalApproval, requestedThreadPolicy, sandboxPolicyOf } from './guardrails-params.js'
import { type HostChannel, type ServerRequestEntry, ServerRequestLedger } from './host-channel.js'
import { type HostInputSettings, negotiateHostInput } from './host-input-protocol.js'
import { EXTRA_METHODS } from './methods/index.js'
import type { MethodContext } from './methods/method-context.js'
import {
  hooksListParamsSchema,
  initializeParamsSchema,
  injectItemsParamsSchema,
  parseParams,
  type responseItemSchema,
  threadResumeParamsSchema,
  threadStartParamsSchema,
  turnInterruptParamsSchema,
  turnStartParamsSchema,
  turnSteerParamsSchema,
} from './params.js'
import { INVALID_REQUEST, invalidRequest, RpcError } from './rpc-errors.js'
import { ANSWERED, type RequestId, RpcPeer, type RpcResponse } from './rpc-peer.js'
import { threadResponse } from './thread-object.js'
import { threadSettings } from './thread-settings.js'
import { uuidv7 } from './uuid-v7.js'
import { turnsFromEvents, type WireTurn } from './wire-items.js'

export const SERVER_VERSION = '0.1.0'

function storedSession(kernel: Kernel, threadId: string): boolean {
  try {
    kernel.resolve('sessionStore').summary(threadId)
    return true
  } catch {
    return false
  }
}

/** What Codex 0.169.0 says before a `thread/resume` answer with every turn (codex-app-server.md §3). */
const FULL_HISTORY_DEPRECATION =
  'Full-history hydration is deprecated for paginated threads; use `excludeTurns: true`, then page with `thread/turns/list` and `thread/items/list`.'

/** Every method the server answers: the core ones here, the rest from `methods/`. */
export const METHODS: readonly string[] = [
  'initialize',
  'thread/start',
  'thread/resume',
  'turn/start',
  'turn/steer',
  'turn/interrupt',
  'thread/inject_items',
  'hooks/list',
  ...Object.keys(EXTRA_METHODS),
]

/** What the `initialize` result says of the kernel's driver: where its turns take input, and what final input does. */
export interface DriverInfo {
  /** `native`, `claude-code`, … */
  id: string
  /** The mid-turn boundaries where the driver claims input (every driver also claims at a turn's start). */
  boundaries: BoundaryKind[]
  /** True when input claimed at the `final` boundary continues the same turn (a `turn/steer` just before the end). */
  finalInputContinuesTurn: boolean
}

function driverInfo(driver: Driver): DriverInfo {
  return {
    id: driver.id,
    boundaries: [...driver.capabilities.boundaries],
    finalInputContinuesTurn: driver.capabilities.finalInputContinuesTurn,
  }
}

export interface HooksListEntry {
  cwd: string
  hooks: unknown[]
  warnings: string[]
  errors: unknown[]
}

export interface AppServerOptions {
  /** A kernel composed with `bridge.plugin` (first). Or pass `createKernel`. */
  kernel?: Kernel
  bridge?: AppServerBridge
  /** Composes the kernel; receives the server's plugin to put first. The server disposes what it created. */
  createKernel?: KernelFactory
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  /** Where logs go (never stdout). Default stderr. */
  log?: (message: string) => void
  /** `codexHome` in the `initialize` result. Default `$HARNESS_HOME`, else the kernel's cwd. */
  home?: string
  /** Host-input timeout when the client asks for none (clamped 1,000–600,000 ms). Default 30,000. */
  hostInputTimeoutMs?: number
  /** What happens to `turn/steer` input a completed turn did not record: reported back (default) or the next turn. */
  steerOnTurnEnd?: SteerOnTurnEnd
  /** `hooks/list`. Default: every cwd with an empty list (no dialect discovery wired in). */
  listHooks?: (cwds: string[]) => HooksListEntry[] | Promise<HooksListEntry[]>
  /** How long a thread no connection is subscribed to stays loaded while idle (`thread/unsubscribe`). Default 30 minutes, as Codex. */
  unloadAfterMs?: number
  /**
   * The sandbox and approval policy of every thread a client starts, resumes or forks without `sandbox` or
   * `approvalPolicy` (the CLI passes what its flags and Codex's config say), and of `command/exec` without
   * `sandboxPolicy`. Without it, threads keep the policy the kernel gives their sessions (its `guardrails` service) and
   * `command/exec` runs under `DEFAULT_GUARDRAILS_POLICY` (workspace-write, network off).
   */
  defaultPolicy?: GuardrailsPolicy
  /**
   * Called when the client accepts a command with `acceptWithExecpolicyAmendment`: the argv prefix it allowed (already
   * allowed for the rest of the session), for the host to keep, e.g. as a `prefix_rule` in Codex's `rules/default.rules`.
   * A failure is logged; the approval stands.
   */
  onRuleAmendment?: (prefix: string[]) => void | Promise<void>
}

export interface AppServer {
  readonly kernel: Promise<Kernel>
  /** Settles when the connection has closed and every thread has been wound down. */
  readonly closed: Promise<void>
  /** Interrupts running turns, ends sessions and (if it created it) disposes the kernel. */
  close(reason?: string): Promise<void>
}

/** A Codex App Server v2 compatible server over one JSON-lines connection (codex-app-server.md). */
export function createAppServer(options: AppServerOptions): AppServer {
  const log = options.log ?? ((message: string) => process.stderr.write(`[app-server] ${message}\n`))
  if (options.defaultPolicy) {
    checkSandboxPolicy(options.defaultPolicy.sandbox, 'createAppServer: defaultPolicy.sandbox')
    checkApprovalPolicy(options.defaultPolicy.approval, 'createAppServer: defaultPolicy.approval')
  }
  const defaultPolicy: GuardrailsPolicy = options.defaultPolicy ?? DEFAULT_GUARDRAILS_POLICY
  const bridge = options.bridge ?? new AppServerBridge()
  if (options.kernel && !options.bridge)
    throw new TypeError('createAppServer: a ready kernel needs the bridge whose plugin it was composed with')
  const owned = options.kernel === undefined
  const kernelPromise: Promise<Kernel> = options.kernel
    ? Promise.resolve(options.kernel)
    : (async () => {
        if (!options.createKernel) throw new TypeError('createAppServer: pass kernel (with bridge) or createKernel')
        const kernel = await options.createKernel([bridge.plugin])
        await kernel.ready
        return kernel
      })()
  kernelPromise.catch((error: unknown) => log(`kernel failed to start: ${errorMessage(error)}`))
  const threads = new Map<string, AppThread>()
  const ledger = new ServerRequestLedger()
  let initialized = false
  let clientName: string | null = null
  let experimentalApi = false
  let hostInput: HostInputSettings | undefined
  let optOut = new Set<string>()
  let closing: Promise<void> | undefined
  let resolveClosed!: () => void
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })

  const peer: RpcPeer = new RpcPeer(options.input, options.output, {
    request: (method, params, id) => handle(method, params, id),
    notification: (method) => {
      if (method !== 'initialized') log(`ignored notification ${method}`)
    },
    response: (response) => {
      const entry = ledger.get(response.id)
      if (entry?.state === 'pending') entry.state = 'answered'
    },
    strayResponse: (response) => stray(response),
    closed: () => {
      void close('host disconnected')
    },
    log,
  })
  peer.decorateNotification = (message) => ({ ...message, emittedAtMs: Date.now() })

  const channel: HostChannel = {
    get hostInput() {
      return hostInput
    },
    get closed() {
      return peer.closed
    },
    notify: (method, params) => {
      if (!optOut.has(method)) peer.notify(method, params)
    },
    request: (kind, threadId, turnId, method, params) => {
      const { id, response } = peer.request(method, params)
      const entry: ServerRequestEntry = { id, kind, threadId, turnId, state: 'pending', resolvedSent: false }
      ledger.add(entry)
      if (peer.closed) {
        entry.state = 'expired'
        return { entry, response: Promise.resolve<RpcResponse>({ id, error: { code: INVALID_REQUEST, message: 'host disconnected' } }) }
      }
      return { entry, response }
    },
    expire: (entry) => {
      if (entry.state !== 'pending') return
      entry.state = 'expired'
      peer.forget(entry.id)
      channel.resolved(entry)
    },
    resolved: (entry) => {
      if (entry.resolvedSent) return
      entry.resolvedSent = true
      channel.notify('serverRequest/resolved', { threadId: entry.threadId, requestId: entry.id })
    },
  }

  function stray(response: RpcResponse): void {
    const entry = ledger.get(response.id)
    if ((entry && entry.kind !== 'hostInput') || (!entry && !hostInput)) {
      log(`ignored an answer to server request ${String(response.id)} (late, duplicate or unknown)`)
      return
    }
    const reason = !entry ? 'unknownRequest' : entry.state === 'expired' ? 'late' : 'duplicate'
    const message =
      reason === 'unknownRequest'
        ? `no server request with id ${String(response.id)}`
        : reason === 'late'
          ? 'the request is no longer pending'
          : 'the request was already answered'
    channel.notify('turn/hostInput/rejected', {
      threadId: entry?.threadId ?? null,
      turnId: entry?.turnId ?? null,
      requestId: response.id,
      reason,
      message,
    })
  }

  async function handle(method: string, params: unknown, id: RequestId): Promise<unknown> {
    if (method === 'initialize') {
      if (initialized) throw invalidRequest('Already initialized')
      const parsed = parseParams(initializeParamsSchema, params)
      initialized = true
      optOut = new Set(parsed.capabilities?.optOutNotificationMethods ?? [])
      experimentalApi = parsed.capabilities?.experimentalApi === true
      const kernel = await kernelPromise
      const driver = kernel.resolve('driver')
      // Host input is asked at the boundaries the kernel's driver has (the native loop: sampling and final; Claude Code: tool).
      hostInput = negotiateHostInput(
        parsed.capabilities?.hostInput,
        options.hostInputTimeoutMs ?? bridge.defaultHostInputTimeoutMs,
        driver.capabilities.boundaries,
      )
      const client = parsed.clientInfo
      clientName = client.name
      return {
        userAgent: `${client.name}/${SERVER_VERSION} (${type()} ${release()}; ${arch()}) ${process.env.TERM_PROGRAM ?? 'unknown'} (${client.name}; ${client.version})`,
        codexHome: options.home ?? process.env.HARNESS_HOME ?? kernel.cwd,
        platformFamily: process.platform === 'win32' ? 'windows' : 'unix',
        platformOs: process.platform === 'darwin' ? 'macos' : process.platform,
        ...(hostInput ? { hostInput } : {}),
        driver: driverInfo(driver),
      }
    }
    if (!initialized) throw invalidRequest('Not initialized')
    switch (method) {
      case 'thread/start': {
        const { thread, result } = await threadStart(parseParams(threadStartParamsSchema, params))
        peer.reply(id, result)
        channel.notify('thread/started', { thread: result.thread })
        thread.shown()
        return ANSWERED
      }
      case 'thread/resume':
        await threadResume(parseParams(threadResumeParamsSchema, params), id)
        return ANSWERED
      case 'turn/start': {
        const parsed = parseParams(turnStartParamsSchema, params)
        const sandbox = parsed.sandboxPolicy ? sandboxPolicyOf(parsed.sandboxPolicy, 'sandboxPolicy') : undefined
        checkExperimentalApproval(parsed.approvalPolicy, experimentalApi)
        const thread = threadFor(parsed.threadId)
        if (parsed.input.length === 0) throw invalidRequest('input must not be empty')
        // For this turn and the later ones (Codex); a turn already running (the input is then steered in) has its
        // later tool calls judged under it.
        applyPolicy(thread.session, {
          ...(sandbox ? { sandbox } : {}),
          ...(parsed.approvalPolicy ? { approval: parsed.approvalPolicy } : {}),
        })
        if (sandbox || parsed.approvalPolicy) {
          channel.notify('thread/settings/updated', {
            threadId: thread.id,
            threadSettings: threadSettings(await kernelPromise, thread.session),
          })
        }
        return new Promise((resolve, reject) => {
          thread
            .startTurn(
              channel,
              parsed.input,
              parsed.clientUserMessageId ?? null,
              (turn) => {
                // Answered from the session-event tap, so the answer precedes `turn/started`.
                peer.reply(id, { turn })
                resolve(ANSWERED)
              },
              (error) => reject(invalidRequest(`could not start a turn: ${errorMessage(error)}`)),
            )
            .then((running) => {
              if (running) resolve({ turn: running })
            }, reject)
        })
      }
      case 'turn/steer': {
        const parsed = parseParams(turnSteerParamsSchema, params)
        const thread = threadFor(parsed.threadId)
        thread.steering.channel = thread.steering.channel ?? channel
        return thread.steer(parsed.input, parsed.expectedTurnId, parsed.clientUserMessageId ?? null)
      }
      case 'turn/interrupt': {
        const parsed = parseParams(turnInterruptParamsSchema, params)
        const thread = threadFor(parsed.threadId)
        return new Promise((resolve) => {
          thread.interrupt(parsed.turnId, () => {
            peer.reply(id, {})
            resolve(ANSWERED)
          })
        })
      }
      case 'thread/inject_items': {
        const parsed = parseParams(injectItemsParamsSchema, params)
        threadFor(parsed.threadId).inject(parsed.items.map(toMessage))
        return {}
      }
      case 'hooks/list': {
        const parsed = parseParams(hooksListParamsSchema, params)
        const kernel = await kernelPromise
        const cwds = parsed?.cwds ?? [parsed?.threadId ? threadFor(parsed.threadId).session.cwd : kernel.cwd]
        const data = options.listHooks ? await options.listHooks(cwds) : cwds.map((cwd) => ({ cwd, hooks: [], warnings: [], errors: [] }))
        return { data }
      }
      default: {
        const extra = Object.hasOwn(EXTRA_METHODS, method) ? EXTRA_METHODS[method] : undefined
        if (extra) return extra(params, context, id)
        throw invalidRequest(
          `Invalid request: unknown variant \`${method}\`, expected one of ${METHODS.map((name) => `\`${name}\``).join(', ')}`,
        )
      }
    }
  }

  const context: MethodContext = {
    kernel: () => kernelPromise,
    threads,
    threadFor,
    adopt,
    unload,
    threadResult,
    channel,
    peer,
    bridge,
    options,
    hostInput: () => hostInput,
    experimentalApi: () => experimentalApi,
    defaultPolicy: () => defaultPolicy,
    log,
  }

  function threadFor(threadId: string): AppThread {
    const thread = threads.get(threadId)
    if (!thread) throw invalidRequest(`thread not found: ${threadId}`)
    return thread
  }

  function adopt(session: Session, createdMs: number): AppThread {
    const steering = bridge.steeringFor(session.id)
    steering.channel = channel
    const thread = new AppThread(session, steering, {
      onTurnEnd: options.steerOnTurnEnd ?? 'drop',
      createdMs,
      log,
      ...(options.onRuleAmendment ? { onRuleAmendment: options.onRuleAmendment } : {}),
    })
    thread.deferEarlyEvents(bridge.takeEarlyEvents(session.id))
    threads.set(session.id, thread)
    bridge.threads.set(session.id, thread)
    return thread
  }

  async function unload(thread: AppThread, reason: string): Promise<void> {
    thread.interruptAll(reason)
    await thread.session.idle()
    if (threads.get(thread.id) !== thread) return
    threads.delete(thread.id)
    bridge.forget(thread.id)
    await thread.session.end(reason)
  }

  async function threadStart(params: z.infer<typeof threadStartParamsSchema>) {
    checkExperimentalApproval(params?.approvalPolicy, experimentalApi)
    const kernel = await kernelPromise
    const id = uuidv7()
    const createdMs = Date.now()
    // Registered before the session exists: the kernel resolves `steering` while creating it.
    bridge.steeringFor(id).channel = channel
    const session = await kernel.startSession({ id, ...(params?.cwd ? { cwd: params.cwd } : {}) })
    // Before the thread exists for the client: nothing of it has run yet.
    applyPolicy(session, { ...options.defaultPolicy, ...requestedThreadPolicy(params, defaultPolicy) })
    const thread = adopt(session, createdMs)
    return { thread, result: threadResult(kernel, thread, []) }
  }

  /**
   * `thread/resume`, answered here. As Codex: a full-history answer is preceded by `deprecationNotice`; a thread
   * loaded by this resume (cold) by `thread/status/changed` idle, and followed by its token usage so far.
   */
  async function threadResume(params: z.infer<typeof threadResumeParamsSchema>, requestId: RequestId): Promise<void> {
    checkExperimentalApproval(params.approvalPolicy, experimentalApi)
    const kernel = await kernelPromise
    let thread = threads.get(params.threadId)
    const cold = thread === undefined
    if (!thread) {
      bridge.steeringFor(params.threadId).channel = channel
      let session: Session
      try {
        session = await kernel.resumeSession(params.threadId, params.cwd ? { cwd: params.cwd } : {})
      } catch (error) {
        bridge.forget(params.threadId)
        // Codex's text for a thread it has no log of; a log that is there but cannot be resumed says why.
        throw new RpcError(
          INVALID_REQUEST,
          storedSession(kernel, params.threadId)
            ? `could not resume thread ${params.threadId}: ${errorMessage(error)}`
            : `no rollout found for thread id ${params.threadId}`,
        )
      }
      // A session loaded again starts under the default policy, as a new one does; a loaded one keeps its own.
      applyPolicy(session, options.defaultPolicy ?? {})
      thread = adopt(session, Date.now())
    }
    applyPolicy(thread.session, requestedThreadPolicy(params, defaultPolicy))
    // A loaded thread this connection had unsubscribed from: subscribed again, as Codex does.
    thread.steering.channel = channel
    const events = params.excludeTurns && !cold ? [] : kernel.resolve('sessionStore').load(params.threadId).events
    if (cold) thread.usage.seed(events)
    const turns = params.excludeTurns ? [] : turnsFromEvents(events, thread.session.cwd, hostInput !== undefined)
    const result = threadResult(kernel, thread, turns)
    if (!params.excludeTurns) channel.notify('deprecationNotice', { summary: FULL_HISTORY_DEPRECATION, details: null })
    if (cold) channel.notify('thread/status/changed', { threadId: thread.id, status: result.thread.status })
    peer.reply(requestId, result)
    const usage = cold ? thread.usage.take(thread.id, true) : undefined
    if (usage) channel.notify('thread/tokenUsage/updated', usage)
    thread.shown()
  }

  function threadResult(kernel: Kernel, thread: AppThread, turns: WireTurn[]) {
    return threadResponse(kernel, thread, turns, { cliVersion: SERVER_VERSION, originator: clientName, defaultPolicy })
  }

  async function close(reason = 'server closed'): Promise<void> {
    closing ??= (async () => {
      peer.close()
      for (const entry of ledger.pending()) channel.expire(entry)
      const kernel = await kernelPromise.catch(() => undefined)
      for (const thread of threads.values()) thread.interruptAll(reason)
      for (const thread of threads.values()) {
        try {
          await thread.session.idle()
          await thread.session.end(reason)
        } catch (error) {
          log(`thread ${thread.id} did not end cleanly: ${errorMessage(error)}`)
        }
        bridge.forget(thread.id)
      }
      threads.clear()
      if (owned && kernel) await kernel.dispose()
      resolveClosed()
    })()
    return closing
  }

  return { kernel: kernelPromise, closed, close }
}

function toMessage(item: z.infer<typeof responseItemSchema>): Message {
  const source = { kind: 'steering' as const, transport: 'app-server' }
  if (item.type === 'message') {
    const text = item.content.map((part) => part.text ?? '').join('')
    return { role: item.role, content: [{ type: 'text', text }], source, meta: { appServer: { kind: 'injected' } } }
  }
  if (item.type === 'function_call') {
    let input: unknown
    try {
      input = JSON.parse(item.arguments)
    } catch {
      input = item.arguments
    }
    return { role: 'assistant', content: [{ type: 'tool_call', id: item.call_id, name: item.name, input }], source }
  }
  return { role: 'tool', content: [{ type: 'tool_result', callId: item.call_id, output: item.output, isError: false }], source }
}
