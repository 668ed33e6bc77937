import { query as sdkQuery } from '@anthropic-ai/claude-agent-sdk'

type QueryFn = typeof sdkQuery

export interface WireFrame {
  type: string
  subtype?: string
  state?: string
  command_uuid?: string
  uuid?: string
  priority?: string
  origin?: unknown
  user_message_uuids?: string[]
  [key: string]: unknown
}

export interface WireOptions {
  /** Drop Claude Code's `queued` receipts of `next` messages before the driver sees them. */
  withholdQueued?: boolean
  /**
   * A release-first bug: acknowledge a `next` message at once with a made-up `queued` receipt, and hand
   * the message to Claude Code only `delayMs` later.
   */
  fakeQueuedDelayMs?: number
  /** Replaces `cancelAsyncMessage`'s answer (after the real call, which still cancels). */
  cancelAnswer?: (real: boolean) => boolean
  /**
   * A Claude Code that reads its stdin late: a `next` message reaches it only once the driver's
   * `cancelAsyncMessage` for it has been answered, so the cancel overtakes the message.
   */
  deliverNextAfterCancel?: boolean
  /** A Claude Code from before `lifecycle_idle_v1`: no such capability in `system/init`, no `idle` on frames. */
  withoutLifecycleIdle?: boolean
}

/** A `query` that records everything on the wire both ways (and can misbehave on purpose). */
export function wireQuery(options: WireOptions = {}) {
  const sent: WireFrame[] = []
  const received: WireFrame[] = []
  const interrupts: unknown[] = []
  const cancels: string[] = []
  let queries = 0
  const injected: WireFrame[] = []
  let wakeInjected: (() => void) | undefined
  const cancelAnswered = new Map<string, () => void>()
  const afterCancel = (uuid: string) => new Promise<void>((resolve) => cancelAnswered.set(uuid, resolve))
  const run: QueryFn = (params) => {
    queries++
    const input = params.prompt as AsyncIterable<WireFrame>
    const tapped = (async function* () {
      for await (const message of input) {
        sent.push(message)
        if (options.deliverNextAfterCancel && message.priority === 'next') await afterCancel(message.uuid as string)
        if (options.fakeQueuedDelayMs !== undefined && message.priority === 'next') {
          injected.push({ type: 'command_lifecycle', command_uuid: message.uuid as string, state: 'queued', uuid: 'fake' })
          wakeInjected?.()
          await new Promise((resolve) => setTimeout(resolve, options.fakeQueuedDelayMs))
        }
        yield message
      }
    })()
    const real = sdkQuery({ ...params, prompt: tapped as never })
    const nextReal = () => real.next()
    async function* merged() {
      let pending = nextReal()
      for (;;) {
        while (injected.length > 0) {
          const frame = injected.shift() as WireFrame
          received.push(frame)
          yield frame
        }
        const injectedArrives = new Promise<'injected'>((resolve) => {
          wakeInjected = () => resolve('injected')
        })
        const winner = await Promise.race([pending, injectedArrives])
        if (winner === 'injected') continue
        pending = nextReal()
        if (winner.done) return
        const frame = options.withoutLifecycleIdle
          ? beforeLifecycleIdle(winner.value as unknown as WireFrame)
          : (winner.value as unknown as WireFrame)
        received.push(frame)
        if (options.withholdQueued && frame.type === 'command_lifecycle' && frame.state === 'queued' && isNext(frame.command_uuid)) continue
        yield frame
      }
    }
    const isNext = (uuid: string | undefined) => sent.some((message) => message.uuid === uuid && message.priority === 'next')
    const iterator = merged()
    return new Proxy(real, {
      get(target, property) {
        if (property === Symbol.asyncIterator) return () => iterator
        if (property === 'next') return () => iterator.next()
        if (property === 'interrupt')
          return (interruptOptions?: unknown) => {
            interrupts.push(interruptOptions)
            return (target.interrupt as (o?: unknown) => Promise<unknown>)(interruptOptions)
          }
        if (property === 'cancelAsyncMessage')
          return async (uuid: string) => {
            cancels.push(uuid)
            const answer =
              (await (target as unknown as { cancelAsyncMessage(u: string): Promise<boolean> }).cancelAsyncMessage(uuid)) === true
            cancelAnswered.get(uuid)?.()
            return options.cancelAnswer ? options.cancelAnswer(answer) : answer
          }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    }) as ReturnType<QueryFn>
  }
  return {
    query: run,
    sent,
    received,
    interrupts,
    cancels,
    get queries() {
      return queries
    },
    results: () => received.filter((frame) => frame.type === 'result'),
  }
}

function beforeLifecycleIdle(frame: WireFrame): WireFrame {
  if (frame.type === 'system' && frame.subtype === 'init' && Array.isArray(frame.capabilities)) {
    return { ...frame, capabilities: (frame.capabilities as string[]).filter((capability) => capability !== 'lifecycle_idle_v1') }
  }
  if (frame.type !== 'command_lifecycle' || !('idle' in frame)) return frame
  const { idle: _idle, ...rest } = frame
  return rest as WireFrame
}
