import { arch, release, type } from 'node:os'
import type { GuardrailsPolicy, Kernel, Message, Session } from '@harness-kernel/kernel'
import { checkApprovalPolicy, checkSandboxPolicy, DEFAULT_GUARDRAILS_POLICY, errorMessage } from '@harness-kernel/kernel'
import type { z } from 'zod'
import { type AppServerOptions, driverInfo, FULL_HISTORY_DEPRECATION, METHODS, SERVER_VERSION } from './app-server-options.js'
import { AppThread } from './app-thread.js'
import { AppServerBridge } from './bridge.js'
import { negotiateBudget } from './budget-requests.js'
import { ConnectionChannel, ServerRequestRoutes } from './connection-channel.js'
import { FleetFrontEnd } from './fleet/fleet-front-end.js'
import { applyPolicy, checkExperimentalApproval, requestedThreadPolicy, sandboxPolicyOf } from './guardrails-params.js'
import { negotiateHostInput } from './host-input-protocol.js'
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
import { channelOf, joinThread, threadChannelOf } from './thread-channel.js'
import { threadResponse } from './thread-object.js'
import { threadSettings } from './thread-settings.js'
import type { ThreadSteering } from './thread-steering.js'
import { uuidv7 } from './uuid-v7.js'
import { turnsFromEvents, type WireTurn } from './wire-items.js'

/** Codex keeps a thread nobody is subscribed to loaded for 30 minutes without activity. */
const UNLOAD_AFTER_MS = 30 * 60_000

export interface AppServerHost {
  readonly kernel: Promise<Kernel>
  /** Serves one client connection (JSON lines in, JSON lines out); the threads it starts outlive it. */
  connect(connection: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; label: string }): AppServerConnection
  /** Settles when the server has closed and every thread has been wound down. */
  readonly closed: Promise<void>
  /** Closes every connection, interrupts running turns, ends sessions and (if it created it) disposes the kernel. */
  close(reason?: string): Promise<void>
}

export interface AppServerConnection {
  readonly label: string
  /** Settles when the connection has closed (the client went away or `close` was called). */
  readonly closed: Promise<void>
  close(): void
}

/**
 * A Codex App Server v2 compatible server for any number of connections (codex-app-server.md). Each connection has
 * its own `initialize` and capabilities; threads belong to the server: a connection that resumes a thread with a
 * turn running gets that turn's notifications from then on, and one that goes away loses nothing of the thread.
 */
export function createAppServerHost(options: Omit<AppServerOptions, 'input' | 'output'>): AppServerHost {
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
  const connections = new Set<ConnectionChannel>()
  const routes = new ServerRequestRoutes()
  const unloads = new Map<string, NodeJS.Timeout>()
  const everyone = () => connections
  let closing: Promise<void> | undefined
  let resolveClosed!: () => void
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })

  const broadcast = (method: string, params: unknown) => {
    for (const connection of connections) if (connection.initialized) connection.notify(method, params)
  }

  function threadFor(threadId: string): AppThread {
    const thread = threads.get(threadId)
    if (!thread) throw invalidRequest(`thread not found: ${threadId}`)
    return thread
  }

  function join(steering: ThreadSteering, connection: ConnectionChannel, joinOptions: { owner: boolean }): void {
    clearTimeout(unloads.get(steering.threadId))
    unloads.delete(steering.threadId)
    joinThread(steering, connection, everyone, joinOptions)
  }

  function adopt(session: Session, createdMs: number, connection: ConnectionChannel | undefined): AppThread {
    const steering = bridge.steeringFor(session.id)
    if (connection) join(steering, connection, { owner: false })
    const thread = new AppThread(session, steering, {
      onTurnEnd: options.steerOnTurnEnd ?? 'drop',
      createdMs,
      log,
      ...(options.onRuleAmendment ? { onRuleAmendment: options.onRuleAmendment } : {}),
    })
    thread.deferEarlyEvents(bridge.takeEarlyEvents(session.id))
    threads.set(session.id, thread)
    bridge.threads.set(session.id, thread)
    fleet?.adopted(thread, (connection) => join(steering, connection, { owner: false }))
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

  /** With nobody subscribed, the thread unloads once it has been idle for `unloadAfterMs`, as Codex's does. */
  function scheduleUnload(thread: AppThread): void {
    clearTimeout(unloads.get(thread.id))
    const timer = setTimeout(() => {
      unloads.delete(thread.id)
      if (threads.get(thread.id) !== thread || threadChannelOf(thread.steering)?.subscribed) return
      // Still working: the idle time starts again.
      if (thread.busy) {
        scheduleUnload(thread)
        return
      }
      unload(thread, 'no subscriber').then(
        () => {
          broadcast('thread/status/changed', { threadId: thread.id, status: { type: 'notLoaded' } })
          broadcast('thread/closed', { threadId: thread.id })
        },
        (error: unknown) => log(`thread ${thread.id} did not unload cleanly: ${errorMessage(error)}`),
      )
    }, options.unloadAfterMs ?? UNLOAD_AFTER_MS)
    timer.unref()
    unloads.set(thread.id, timer)
  }

  function leave(thread: AppThread, connection: ConnectionChannel): boolean {
    const channel = threadChannelOf(thread.steering)
    if (!channel?.leave(connection)) return false
    if (!channel.subscribed) scheduleUnload(thread)
    return true
  }

  function threadResult(kernel: Kernel, thread: AppThread, turns: WireTurn[], connection: ConnectionChannel) {
    return threadResponse(kernel, thread, turns, { cliVersion: SERVER_VERSION, originator: connection.clientName, defaultPolicy })
  }

  const fleet = options.fleet
    ? new FleetFrontEnd({
        port: options.fleet,
        kernel: () => kernelPromise,
        loaded: (threadId) => threads.get(threadId),
        takeOver: async (threadId) => {
          const kernel = await kernelPromise
          if (threads.has(threadId)) return threads.get(threadId)
          bridge.steeringFor(threadId)
          let session: Session
          try {
            session = await kernel.resumeSession(threadId)
          } catch (error) {
            bridge.forget(threadId)
            log(`did not take thread ${threadId} over: ${errorMessage(error)}`)
            return undefined
          }
          applyPolicy(session, options.defaultPolicy ?? {})
          const thread = adopt(session, Date.now(), undefined)
          if (!threadChannelOf(thread.steering)?.subscribed) scheduleUnload(thread)
          return thread
        },
        channelOf: (thread) => channelOf(thread.steering, everyone),
        connection: (id) => {
          for (const connection of connections) if (connection.id === id) return connection
          return undefined
        },
        defaultPolicy,
        log,
      })
    : undefined

  // A thread whose log another process took over is that process's now: ended here, and every connection told.
  bridge.onSessionLost = (threadId) => {
    const thread = threads.get(threadId)
    if (!thread) return
    thread.lost()
    threads.delete(threadId)
    bridge.forget(threadId)
    clearTimeout(unloads.get(threadId))
    broadcast('thread/status/changed', { threadId, status: { type: 'notLoaded' } })
    broadcast('thread/closed', { threadId })
  }

  function connect(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; label: string }): AppServerConnection {
    let resolveGone!: () => void
    const gone = new Promise<void>((resolve) => {
      resolveGone = resolve
    })
    const peer: RpcPeer = new RpcPeer(
      io.input,
      io.output,
      {
        request: (method, params, id) => handle(context, method, params, id),
        notification: (method) => {
          if (method !== 'initialized') log(`${io.label}: ignored notification ${method}`)
        },
        response: (response) => {
          const entry = connection.ledger.get(response.id)
          if (entry?.state === 'pending') entry.state = 'answered'
        },
        strayResponse: (response) => stray(connection, response),
        closed: () => disconnected(),
        log: (message) => log(`${io.label}: ${message}`),
      },
      { nextId: routes.nextId },
    )
    peer.decorateNotification = (message) => ({ ...message, emittedAtMs: Date.now() })
    const connection = new ConnectionChannel({ label: io.label, peer, routes })
    const context = contextOf(connection, gone)
    connections.add(connection)
    let ended = false
    function disconnected(): void {
      if (ended) return
      ended = true
      peer.close()
      connections.delete(connection)
      for (const entry of connection.ledger.pending()) connection.expire(entry)
      for (const thread of threads.values()) leave(thread, connection)
      fleet?.left(connection)
      routes.forgetConnection(connection)
      resolveGone()
    }
    return { label: io.label, closed: gone, close: disconnected }
  }

  function stray(connection: ConnectionChannel, response: RpcResponse): void {
    const entry = connection.ledger.get(response.id)
    const sentTo = routes.connectionOf(response.id)
    if (!entry && sentTo !== undefined && sentTo !== connection) {
      // Codex 0.171.0 takes an answer to a request it sent another connection; the server refuses it on purpose.
      const other = sentTo.ledger.get(response.id)
      log(`${connection.label}: refused an answer to server request ${String(response.id)}: it was sent to another connection`)
      if (other?.kind === 'hostInput')
        connection.notify('turn/hostInput/rejected', {
          threadId: other.threadId,
          turnId: other.turnId,
          requestId: response.id,
          reason: 'unknownRequest',
          message: `server request ${String(response.id)} was sent to another connection`,
        })
      return
    }
    if ((entry && entry.kind !== 'hostInput') || (!entry && !connection.hostInput)) {
      log(`${connection.label}: ignored an answer to server request ${String(response.id)} (late, duplicate or unknown)`)
      return
    }
    const reason = !entry ? 'unknownRequest' : entry.state === 'expired' ? 'late' : 'duplicate'
    const message =
      reason === 'unknownRequest'
        ? `no server request with id ${String(response.id)}`
        : reason === 'late'
          ? 'the request is no longer pending'
          : 'the request was already answered'
    connection.notify('turn/hostInput/rejected', {
      threadId: entry?.threadId ?? null,
      turnId: entry?.turnId ?? null,
      requestId: response.id,
      reason,
      message,
    })
  }

  function contextOf(connection: ConnectionChannel, connectionClosed: Promise<void>): MethodContext {
    return {
      connectionClosed,
      kernel: () => kernelPromise,
      threads,
      threadFor,
      adopt: (session, createdMs) => adopt(session, createdMs, connection),
      unload,
      threadResult: (kernel, thread, turns) => threadResult(kernel, thread, turns, connection),
      channel: connection,
      peer: connection.peer,
      bridge,
      options,
      hostInput: () => connection.hostInput,
      experimentalApi: () => connection.experimentalApi,
      defaultPolicy: () => defaultPolicy,
      log,
      join: (steering, joinOptions) => join(steering, connection, joinOptions),
      leave: (thread) => leave(thread, connection),
      broadcast,
    }
  }

  async function handle(context: MethodContext, method: string, params: unknown, id: RequestId): Promise<unknown> {
    const connection = context.channel
    if (method === 'initialize') {
      if (connection.initialized) throw invalidRequest('Already initialized')
      const parsed = parseParams(initializeParamsSchema, params)
      connection.initialized = true
      connection.optOut = new Set(parsed.capabilities?.optOutNotificationMethods ?? [])
      connection.experimentalApi = parsed.capabilities?.experimentalApi === true
      const kernel = await kernelPromise
      const driver = kernel.resolve('driver')
      // Host input is asked at the boundaries the kernel's driver has (the native loop: sampling and final; Claude Code: tool).
      connection.hostInput = negotiateHostInput(
        parsed.capabilities?.hostInput,
        options.hostInputTimeoutMs ?? bridge.defaultHostInputTimeoutMs,
        driver.capabilities.boundaries,
      )
      connection.budget = negotiateBudget(parsed.capabilities?.budget)
      const client = parsed.clientInfo
      connection.clientName = client.name
      return {
        userAgent: `${client.name}/${SERVER_VERSION} (${type()} ${release()}; ${arch()}) ${process.env.TERM_PROGRAM ?? 'unknown'} (${client.name}; ${client.version})`,
        codexHome: options.home ?? process.env.HARNESS_HOME ?? kernel.cwd,
        platformFamily: process.platform === 'win32' ? 'windows' : 'unix',
        platformOs: process.platform === 'darwin' ? 'macos' : process.platform,
        ...(connection.hostInput ? { hostInput: connection.hostInput } : {}),
        ...(connection.budget ? { budget: connection.budget } : {}),
        driver: driverInfo(driver),
      }
    }
    if (!connection.initialized) throw invalidRequest('Not initialized')
    switch (method) {
      case 'thread/start': {
        const { thread, result } = await threadStart(connection, parseParams(threadStartParamsSchema, params))
        connection.peer.reply(id, result)
        // To every initialized connection, subscribed or not (Codex 0.171.0, observed).
        broadcast('thread/started', { thread: result.thread })
        thread.shown()
        return ANSWERED
      }
      case 'thread/resume':
        await threadResume(connection, parseParams(threadResumeParamsSchema, params), id)
        return ANSWERED
      case 'turn/start': {
        const parsed = parseParams(turnStartParamsSchema, params)
        const sandbox = parsed.sandboxPolicy ? sandboxPolicyOf(parsed.sandboxPolicy, 'sandboxPolicy') : undefined
        checkExperimentalApproval(parsed.approvalPolicy, connection.experimentalApi)
        const policy = { ...(sandbox ? { sandbox } : {}), ...(parsed.approvalPolicy ? { approval: parsed.approvalPolicy } : {}) }
        // Another server runs the thread: the policy goes with the input, applied there before the turn uses it.
        if (fleet && !threads.has(parsed.threadId)) return fleet.start(connection, { ...parsed, policy })
        const thread = threadFor(parsed.threadId)
        if (parsed.input.length === 0) throw invalidRequest('input must not be empty')
        // For this turn and the later ones (Codex); a turn already running (the input is then steered in) has its
        // later tool calls judged under it.
        applyPolicy(thread.session, policy)
        // The connection that starts a turn is the one its approvals and host input are asked of.
        join(thread.steering, connection, { owner: !thread.busy })
        if (sandbox || parsed.approvalPolicy) {
          thread.channel?.notify('thread/settings/updated', {
            threadId: thread.id,
            threadSettings: threadSettings(await kernelPromise, thread.session),
          })
        }
        // Shared with other servers: input a client may retry anywhere goes through the inbox, to be recorded once.
        if (fleet && parsed.clientUserMessageId) return fleet.start(connection, { ...parsed, policy: {} })
        return new Promise((resolve, reject) => {
          thread
            .startTurn(
              parsed.input,
              parsed.clientUserMessageId ?? null,
              (turn) => {
                // Answered from the session-event tap, so the answer precedes `turn/started`.
                connection.peer.reply(id, { turn })
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
        if (fleet) {
          const local = threads.get(parsed.threadId)
          if (local) join(local.steering, connection, { owner: false })
          return fleet.steer(parsed)
        }
        const thread = threadFor(parsed.threadId)
        join(thread.steering, connection, { owner: false })
        return thread.steer(parsed.input, parsed.expectedTurnId, parsed.clientUserMessageId ?? null)
      }
      case 'turn/interrupt': {
        const parsed = parseParams(turnInterruptParamsSchema, params)
        if (fleet && !threads.has(parsed.threadId)) return fleet.interrupt(parsed.threadId, parsed.turnId)
        const thread = threadFor(parsed.threadId)
        return new Promise((resolve) => {
          thread.interrupt(parsed.turnId, () => {
            connection.peer.reply(id, {})
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

  async function threadStart(connection: ConnectionChannel, params: z.infer<typeof threadStartParamsSchema>) {
    checkExperimentalApproval(params?.approvalPolicy, connection.experimentalApi)
    const kernel = await kernelPromise
    const id = uuidv7()
    const createdMs = Date.now()
    // Joined before the session exists: the kernel resolves `steering` while creating it.
    join(bridge.steeringFor(id), connection, { owner: true })
    const session = await kernel.startSession({ id, ...(params?.cwd ? { cwd: params.cwd } : {}) })
    // Before the thread exists for the client: nothing of it has run yet.
    applyPolicy(session, { ...options.defaultPolicy, ...requestedThreadPolicy(params, defaultPolicy) })
    const thread = adopt(session, createdMs, connection)
    return { thread, result: await threadResult(kernel, thread, [], connection) }
  }

  /**
   * `thread/resume`, answered here. As Codex: a full-history answer is preceded by `deprecationNotice`; a thread
   * loaded by this resume (cold) by `thread/status/changed` idle, and followed by its token usage so far. A thread
   * with a turn running answers it `inProgress`, and the connection gets the turn's notifications from then on.
   */
  async function threadResume(
    connection: ConnectionChannel,
    params: z.infer<typeof threadResumeParamsSchema>,
    requestId: RequestId,
  ): Promise<void> {
    checkExperimentalApproval(params.approvalPolicy, connection.experimentalApi)
    const kernel = await kernelPromise
    let thread = threads.get(params.threadId)
    const cold = thread === undefined
    if (!thread) {
      join(bridge.steeringFor(params.threadId), connection, { owner: true })
      let session: Session
      try {
        session = await kernel.resumeSession(params.threadId, params.cwd ? { cwd: params.cwd } : {})
      } catch (error) {
        bridge.forget(params.threadId)
        // Another live process owns it: followed from the store instead.
        if (fleet && (await fleet.ownedElsewhere(params.threadId))) {
          const result = await fleet.resume(connection, params.threadId, params.excludeTurns === true)
          if (!params.excludeTurns) connection.notify('deprecationNotice', { summary: FULL_HISTORY_DEPRECATION, details: null })
          connection.peer.reply(requestId, result)
          return
        }
        // Codex's text for a thread it has no log of; a log that is there but cannot be resumed says why.
        throw new RpcError(
          INVALID_REQUEST,
          (await storedSession(kernel, params.threadId))
            ? `could not resume thread ${params.threadId}: ${errorMessage(error)}`
            : `no rollout found for thread id ${params.threadId}`,
        )
      }
      // A session loaded again starts under the default policy, as a new one does; a loaded one keeps its own.
      applyPolicy(session, options.defaultPolicy ?? {})
      thread = adopt(session, Date.now(), connection)
    }
    applyPolicy(thread.session, requestedThreadPolicy(params, defaultPolicy))
    join(thread.steering, connection, { owner: false })
    const events = params.excludeTurns && !cold ? [] : (await kernel.resolve('sessionStore').load(params.threadId)).events
    if (cold) thread.usage.seed(events)
    const turns = params.excludeTurns ? [] : turnsFromEvents(events, thread.session.cwd, connection.hostInput !== undefined)
    const result = await threadResult(kernel, thread, turns, connection)
    if (!params.excludeTurns) connection.notify('deprecationNotice', { summary: FULL_HISTORY_DEPRECATION, details: null })
    if (cold) broadcast('thread/status/changed', { threadId: thread.id, status: result.thread.status })
    connection.peer.reply(requestId, result)
    const usage = cold ? thread.usage.take(thread.id, true) : undefined
    if (usage) connection.notify('thread/tokenUsage/updated', usage)
    thread.shown()
  }

  async function close(reason = 'server closed'): Promise<void> {
    closing ??= (async () => {
      for (const connection of [...connections]) {
        connection.peer.close()
        for (const entry of connection.ledger.pending()) connection.expire(entry)
      }
      connections.clear()
      for (const timer of unloads.values()) clearTimeout(timer)
      await fleet?.close()
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

  return { kernel: kernelPromise, connect, closed, close }
}

async function storedSession(kernel: Kernel, threadId: string): Promise<boolean> {
  try {
    await kernel.resolve('sessionStore').summary(threadId)
    return true
  } catch {
    return false
  }
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
