import { errorMessage } from '@harness-kernel/kernel'
import type { AppThread } from '../app-thread.js'
import { applyPolicy } from '../guardrails-params.js'
import type { UserInput } from '../params.js'
import type { ThreadChannel } from '../thread-channel.js'
import type { FleetPort, InboxInterruptPayload, InboxItem, InboxSteerPayload } from './fleet-port.js'
import { RelayedHost } from './relayed-host.js'

export interface InboxConsumerOptions {
  port: FleetPort
  /** The thread when this server has it loaded (and so holds its lease). */
  loaded(threadId: string): AppThread | undefined
  /** Takes a thread no live process holds over (resumes it here); undefined when another process got it first. */
  takeOver(threadId: string): Promise<AppThread | undefined>
  /** The thread's channel (made if it has none): who its server requests go to. */
  channelOf(thread: AppThread): ThreadChannel
  /** How often to look for threads with input and no live owner. Default 1,000 ms. */
  sweepMs?: number
  log(message: string): void
}

/**
 * The owner's side of the inbox: input other front-ends accepted for a thread this server holds is claimed and acted
 * on here (a steer goes into the running turn, or starts one; an interrupt interrupts it), and threads with input
 * whose owner died are taken over. A steer's inbox id is its steering item id: the log records it once and settles
 * its row in the same transaction, so a take-over after a crash acts on what was claimed and not yet recorded.
 */
export class InboxConsumer {
  readonly #options: InboxConsumerOptions
  /** Per thread, the claim in progress: one at a time, so two wakes never act on a row twice. */
  readonly #running = new Map<string, Promise<void>>()
  readonly #again = new Set<string>()
  readonly #watch: { close(): Promise<void> }
  readonly #sweep: NodeJS.Timeout
  /** A sweep still running: the next tick skips, so slow take-overs never pile up on one thread. */
  #sweeping = false
  #closed = false

  constructor(options: InboxConsumerOptions) {
    this.#options = options
    this.#watch = options.port.watchInbox((threadId) => this.wake(threadId))
    this.#sweep = setInterval(() => void this.#sweepOrphans(), options.sweepMs ?? 1_000)
    this.#sweep.unref()
  }

  /** The thread may have input: claim and act on it if it is loaded here. */
  wake(threadId: string): void {
    if (this.#closed || this.#options.loaded(threadId) === undefined) return
    if (this.#running.has(threadId)) {
      this.#again.add(threadId)
      return
    }
    const run = this.#consume(threadId)
      .catch((error: unknown) => this.#options.log(`inbox of thread ${threadId}: ${errorMessage(error)}`))
      .finally(() => {
        this.#running.delete(threadId)
        if (this.#again.delete(threadId)) this.wake(threadId)
      })
    this.#running.set(threadId, run)
  }

  async close(): Promise<void> {
    this.#closed = true
    clearInterval(this.#sweep)
    await this.#watch.close()
    await Promise.allSettled(this.#running.values())
  }

  async #consume(threadId: string): Promise<void> {
    const { port } = this.#options
    const items = await port.claim(threadId)
    for (const item of items) {
      const thread = this.#options.loaded(threadId)
      if (!thread) {
        await port.release(items.slice(items.indexOf(item)).map((each) => each.id))
        return
      }
      if (item.kind === 'interrupt') await this.#interrupt(thread, item)
      else await this.#steer(thread, item)
    }
  }

  async #steer(thread: AppThread, item: InboxItem): Promise<void> {
    const payload = item.payload as InboxSteerPayload
    // A turn it starts from another server's input was started by that server's connection: its approvals and host
    // input are relayed there, never asked of whichever connection of this server started an earlier turn (and of
    // nobody, refused, when the input does not say which connection sent it).
    if (!thread.busy && item.acceptedBy !== this.#options.port.instance) {
      const { origin } = payload
      this.#options.channelOf(thread).owner = origin
        ? new RelayedHost({
            port: this.#options.port,
            instance: item.acceptedBy,
            connection: origin.connection,
            hostInput: origin.hostInput,
            budget: origin.budget,
            log: this.#options.log,
          })
        : undefined
    }
    if (payload.policy) {
      try {
        applyPolicy(thread.session, payload.policy)
      } catch (error) {
        // Never run input under less protection than its request asked for: dropped, and the client is told so.
        this.#options.log(`dropped steer ${item.id} of thread ${thread.id}: its policy cannot be applied: ${errorMessage(error)}`)
        await this.#options.port.settle([item.id], 'dropped')
        return
      }
    }
    // Into the running turn when there is one, else it starts one: either way recorded once, under the item's id.
    await thread.startTurn(
      payload.input as UserInput[],
      payload.clientUserMessageId,
      () => {},
      (error) => {
        this.#options.log(`could not act on steer ${item.id} of thread ${thread.id}: ${errorMessage(error)}`)
        this.#options.port
          .release([item.id])
          .catch((failure: unknown) => this.#options.log(`could not hand steer ${item.id} back: ${errorMessage(failure)}`))
      },
      item.id,
    )
  }

  async #interrupt(thread: AppThread, item: InboxItem): Promise<void> {
    const { turnId } = item.payload as InboxInterruptPayload
    const running = thread.activeTurnId === turnId
    if (running) thread.interrupt(turnId, () => {})
    await this.#options.port.settle([item.id], running ? 'recorded' : 'dropped')
  }

  async #sweepOrphans(): Promise<void> {
    if (this.#closed || this.#sweeping) return
    this.#sweeping = true
    try {
      await this.#takeOverOrphans()
    } finally {
      this.#sweeping = false
    }
  }

  async #takeOverOrphans(): Promise<void> {
    let orphans: string[]
    try {
      orphans = await this.#options.port.orphans()
    } catch (error) {
      this.#options.log(`could not look for threads without an owner: ${errorMessage(error)}`)
      return
    }
    for (const threadId of orphans) {
      if (this.#closed || this.#options.loaded(threadId)) continue
      try {
        if (await this.#options.takeOver(threadId)) this.wake(threadId)
      } catch (error) {
        this.#options.log(`could not take thread ${threadId} over: ${errorMessage(error)}`)
      }
    }
  }
}
