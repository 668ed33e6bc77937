import { setTimeout as sleep } from 'node:timers/promises'
import { errorMessage, type GuardrailsPolicy, type Kernel } from '@harness-kernel/kernel'
import { SERVER_VERSION } from '../app-server-options.js'
import type { AppThread } from '../app-thread.js'
import type { ConnectionChannel } from '../connection-channel.js'
import type { UserInput } from '../params.js'
import { INTERNAL_ERROR, invalidRequest, RpcError } from '../rpc-errors.js'
import type { ThreadChannel } from '../thread-channel.js'
import { threadResponse } from '../thread-object.js'
import { uuidv7 } from '../uuid-v7.js'
import type { WireTurn } from '../wire-items.js'
import type { FleetPort } from './fleet-port.js'
import { InboxConsumer } from './inbox-consumer.js'
import { RemoteThread, turnOfItem } from './remote-thread.js'
import { RequestRelay } from './request-relay.js'

export interface FleetFrontEndOptions {
  port: FleetPort
  kernel(): Promise<Kernel>
  loaded(threadId: string): AppThread | undefined
  takeOver(threadId: string): Promise<AppThread | undefined>
  /** The thread's channel (made if it has none). */
  channelOf(thread: AppThread): ThreadChannel
  /** This server's connection with that id, while it is open. */
  connection(id: string): ConnectionChannel | undefined
  /** The policy a thread answer reports for a thread with no session here. */
  defaultPolicy: GuardrailsPolicy
  log(message: string): void
}

interface SteerParams {
  threadId: string
  expectedTurnId: string
  input: UserInput[]
  clientUserMessageId?: string | null | undefined
}

/**
 * What the App Server does for threads shared with other processes: steers and interrupts go through the store's
 * inbox (to whichever process owns the thread, this one included, so a retried request is recorded once), threads
 * another process owns are followed from the store, and this server's own threads take their inbox input.
 */
export class FleetFrontEnd {
  readonly #options: FleetFrontEndOptions
  readonly #consumer: InboxConsumer
  readonly #relay: RequestRelay
  readonly #remotes = new Map<string, RemoteThread>()

  constructor(options: FleetFrontEndOptions) {
    this.#options = options
    this.#consumer = new InboxConsumer({
      port: options.port,
      loaded: options.loaded,
      takeOver: options.takeOver,
      channelOf: options.channelOf,
      log: options.log,
    })
    this.#relay = new RequestRelay({ port: options.port, connection: options.connection, log: options.log })
  }

  /** A thread this server now owns: its waiting input is claimed, and whoever followed it from here follows it live. */
  adopted(thread: AppThread, join: (connection: ConnectionChannel) => void): void {
    const remote = this.#remotes.get(thread.id)
    if (remote) {
      this.#remotes.delete(thread.id)
      remote.close()
      for (const connection of remote.subscribers) join(connection)
    }
    this.#consumer.wake(thread.id)
  }

  left(connection: ConnectionChannel): void {
    this.#relay.left(connection)
    for (const [threadId, remote] of this.#remotes) {
      remote.leave(connection)
      if (remote.subscribers.size > 0) continue
      remote.close()
      this.#remotes.delete(threadId)
    }
  }

  /** Whether a live process other than this one holds the thread. */
  async ownedElsewhere(threadId: string): Promise<boolean> {
    const holder = await this.#options.port.holder(threadId)
    return holder !== undefined && holder.instance !== this.#options.port.instance
  }

  /**
   * `turn/steer`, through the inbox: checked against the turn the thread runs (here, or in its log), recorded once per
   * `clientUserMessageId` (a retry through any front-end is the same row), answered once the row is committed.
   */
  async steer(params: SteerParams): Promise<{ turnId: string }> {
    if (params.input.length === 0) throw invalidRequest('input must not be empty')
    const local = this.#options.loaded(params.threadId)
    const active = local ? local.activeTurnId : await this.#openTurnOf(params.threadId, params.expectedTurnId)
    if (!active) throw invalidRequest('no active turn to steer')
    if (active !== params.expectedTurnId)
      throw invalidRequest(`expected active turn id \`${params.expectedTurnId}\` but found \`${active}\``)
    const clientId = params.clientUserMessageId ?? null
    const id = clientId === null ? uuidv7() : `steer:${params.threadId}:${clientId}`
    await this.#options.port.accept({
      id,
      threadId: params.threadId,
      kind: 'steer',
      payload: { input: params.input, expectedTurnId: params.expectedTurnId, clientUserMessageId: clientId },
      acceptedBy: this.#options.port.instance,
    })
    // Followed here: if the owner drops it, this server's subscribers hear of it from the log (the owner records
    // nothing before it claims the row, which comes after this answer).
    this.#remotes.get(params.threadId)?.steered(id, { turnId: active, input: params.input, clientId })
    if (local) this.#consumer.wake(params.threadId)
    return { turnId: active }
  }

  /**
   * `turn/start` with the fleet: through the inbox as a steer (the owner starts a turn with it, or steers it into the
   * one running), so a retry with the same `clientUserMessageId` through any server is the same input, recorded once.
   * Answered with the turn it was recorded in, once the log has it (Codex answers before `turn/started`; this answer
   * comes after it).
   */
  async start(
    connection: ConnectionChannel,
    params: {
      threadId: string
      input: UserInput[]
      clientUserMessageId?: string | null | undefined
      /** What the request asked for; applied by the owner, for this turn and the later ones. */
      policy: Partial<GuardrailsPolicy>
    },
  ): Promise<{ turn: WireTurn }> {
    if (params.input.length === 0) throw invalidRequest('input must not be empty')
    const { threadId } = params
    const clientId = params.clientUserMessageId ?? null
    const id = clientId === null ? uuidv7() : `steer:${threadId}:${clientId}`
    const local = this.#options.loaded(threadId)
    const remote = local ? undefined : await this.#remote(threadId)
    remote?.join(connection)
    const recorded = local ? local.whenRecorded(id) : remote!.whenRecorded(id)
    const { state } = await this.#options.port.accept({
      id,
      threadId,
      kind: 'steer',
      payload: {
        input: params.input,
        expectedTurnId: '',
        clientUserMessageId: clientId,
        // A turn it starts asks this connection its approvals, host input and reached budgets, wherever the thread runs.
        origin: {
          connection: connection.id,
          ...(connection.hostInput ? { hostInput: connection.hostInput } : {}),
          ...(connection.budget ? { budget: connection.budget } : {}),
        },
        ...(Object.keys(params.policy).length > 0 ? { policy: params.policy } : {}),
      },
      acceptedBy: this.#options.port.instance,
    })
    remote?.steered(id, { turnId: '', input: params.input, clientId })
    if (local) this.#consumer.wake(threadId)
    if (state === 'dropped') throw droppedInput(id)
    const answered = new AbortController()
    // A retry of input recorded before this server saw the thread: its turn is in the log.
    const turnId =
      state === 'recorded' && local
        ? await this.#recordedTurn(threadId, id)
        : await withinStartTimeout(Promise.race([recorded, this.#whenDropped(id, answered.signal)]), id).finally(() => answered.abort())
    if (turnId === undefined) throw invalidRequest(`input ${id} is recorded, but not in a turn of thread ${threadId}`)
    return {
      turn: {
        id: turnId,
        rootTurnId: turnId,
        items: [],
        itemsView: 'notLoaded',
        status: 'inProgress',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
    }
  }

  /** `turn/interrupt` of a thread another process runs: to its owner through the inbox, answered once committed. */
  async interrupt(threadId: string, turnId: string): Promise<Record<string, never>> {
    const open = await this.#openTurnOf(threadId, turnId)
    if (!open) throw invalidRequest('no active turn to interrupt')
    if (open !== turnId) throw invalidRequest(`expected active turn id \`${turnId}\` but found \`${open}\``)
    await this.#options.port.accept({
      id: uuidv7(),
      threadId,
      kind: 'interrupt',
      payload: { turnId },
      acceptedBy: this.#options.port.instance,
    })
    return {}
  }

  /** `thread/resume` of a thread another process owns: answered from its log, then followed for this connection. */
  async resume(connection: ConnectionChannel, threadId: string, excludeTurns: boolean) {
    const remote = await this.#remote(threadId)
    remote.join(connection)
    const kernel = await this.#options.kernel()
    const summary = await kernel.resolve('sessionStore').summary(threadId)
    const facts = {
      id: threadId,
      busy: remote.openTurnId !== undefined,
      createdMs: Date.parse(summary.createdAt ?? '') || Date.now(),
      session: { cwd: remote.cwd, transcriptPath: summary.path },
    }
    const turns = excludeTurns ? [] : remote.turns(connection.hostInput !== undefined)
    return threadResponse(kernel, facts, turns, {
      cliVersion: SERVER_VERSION,
      originator: connection.clientName,
      defaultPolicy: this.#options.defaultPolicy,
    })
  }

  async close(): Promise<void> {
    for (const remote of this.#remotes.values()) remote.close()
    this.#remotes.clear()
    await Promise.all([this.#consumer.close(), this.#relay.close()])
  }

  async #remote(threadId: string): Promise<RemoteThread> {
    const known = this.#remotes.get(threadId)
    if (known) return known
    const kernel = await this.#options.kernel()
    const store = kernel.resolve('sessionStore')
    let loaded: Awaited<ReturnType<typeof store.load>>
    try {
      loaded = await store.load(threadId)
    } catch (error) {
      throw unreadable(threadId, error)
    }
    const again = this.#remotes.get(threadId)
    if (again) return again
    const start = loaded.events.find((event) => event.type === 'session/start')
    const remote = new RemoteThread({
      id: threadId,
      cwd: start?.type === 'session/start' ? start.cwd : kernel.cwd,
      events: loaded.events,
      log: this.#options.log,
      turnEnded: (turnId) => this.#relay.turnEnded(threadId, turnId),
    })
    this.#remotes.set(threadId, remote)
    remote.follow(this.#options.port)
    return remote
  }

  /**
   * Rejects once the owner drops the input instead of recording it (the turn it was steered into ended first, or its
   * policy could not be applied there): a drop writes no message to wait for, so the row's state is asked after.
   */
  async #whenDropped(id: string, signal: AbortSignal): Promise<never> {
    while (!signal.aborted) {
      await sleep(DROP_POLL_MS, undefined, { ref: false })
      const state = signal.aborted ? undefined : await this.#options.port.stateOf(id).catch(() => undefined)
      if (state === 'dropped') throw droppedInput(id)
    }
    return new Promise<never>(() => {})
  }

  async #recordedTurn(threadId: string, itemId: string): Promise<string | undefined> {
    const kernel = await this.#options.kernel()
    return turnOfItem((await kernel.resolve('sessionStore').load(threadId)).events, itemId)
  }

  /**
   * The turn the thread's log has open. The owner writes its log behind (a few milliseconds), so a turn a client just
   * heard of may not be in it yet: until `expected` shows up or `LOG_LAG_MS` pass, it is looked up again (in the
   * thread as followed here, else by the store's one-row query).
   */
  async #openTurnOf(threadId: string, expected: string): Promise<string | undefined> {
    const deadline = Date.now() + LOG_LAG_MS
    for (;;) {
      const followed = this.#remotes.get(threadId)
      let open: string | undefined
      if (followed) open = followed.openTurnId
      else {
        try {
          open = await this.#options.port.openTurn(threadId)
        } catch (error) {
          throw unreadable(threadId, error)
        }
      }
      if (open === expected || Date.now() >= deadline) return open
      await sleep(LOG_POLL_MS)
    }
  }
}

/** How long a `turn/start` through the inbox waits for the owner to record its input. */
const START_TIMEOUT_MS = 60_000

function withinStartTimeout(recorded: Promise<string>, itemId: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          invalidRequest(
            `the thread's owner did not record input ${itemId} within ${START_TIMEOUT_MS / 1000} s; it stays in the thread's inbox and is recorded once`,
          ),
        ),
      START_TIMEOUT_MS,
    )
    timer.unref()
  })
  return Promise.race([recorded, late]).finally(() => clearTimeout(timer))
}

/** How often a `turn/start` through the inbox asks whether its input was dropped. */
const DROP_POLL_MS = 500

function droppedInput(id: string): RpcError {
  return invalidRequest(`input ${id} was dropped by the thread's owner, not recorded: send it again as a new turn`)
}

/** How long a steer or interrupt of a thread another process runs waits for its log to show the turn it names. */
const LOG_LAG_MS = 2_000
const LOG_POLL_MS = 25

/**
 * A thread whose log could not be read: `thread not found` only when it does not exist. Anything else (the database
 * restarting) is an internal error, which a client retries, never a final answer that would make it drop its input.
 */
function unreadable(threadId: string, error: unknown): RpcError {
  const message = errorMessage(error)
  if (/does not exist|no session |no thread /.test(message)) return invalidRequest(`thread not found: ${threadId}`)
  return new RpcError(INTERNAL_ERROR, `could not read thread ${threadId}: ${message}`)
}
