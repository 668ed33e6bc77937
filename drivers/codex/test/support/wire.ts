import type { ProtocolMessage } from '../../src/index.js'

type Message = Record<string, unknown> & { method?: string; params?: Record<string, unknown>; id?: unknown }

/** The driver's JSON-RPC traffic with Codex, through `onProtocolMessage`, with hooks to act at a message. */
export function wireLog() {
  const entries: { direction: 'in' | 'out'; message: Message }[] = []
  const hooks: { when(entry: { direction: 'in' | 'out'; message: Message }): boolean; run(): void; once: boolean }[] = []
  return {
    entries,
    onProtocolMessage(entry: ProtocolMessage) {
      const item = entry as { direction: 'in' | 'out'; message: Message }
      entries.push(item)
      for (const hook of [...hooks]) {
        if (!hook.when(item)) continue
        if (hook.once) hooks.splice(hooks.indexOf(hook), 1)
        hook.run()
      }
    },
    /** Runs `run` synchronously when a matching message passes (before the driver handles an incoming one). */
    at(when: (entry: { direction: 'in' | 'out'; message: Message }) => boolean, run: () => void, once = true) {
      hooks.push({ when, run, once })
    },
    sent(method: string): Message[] {
      return entries.filter((entry) => entry.direction === 'out' && entry.message.method === method).map((entry) => entry.message)
    },
    received(method: string): Message[] {
      return entries.filter((entry) => entry.direction === 'in' && entry.message.method === method).map((entry) => entry.message)
    },
    /** The answer to the request the driver sent with `id`. */
    answerTo(id: unknown): Message | undefined {
      return entries.find((entry) => entry.direction === 'in' && entry.message.id === id && entry.message.method === undefined)?.message
    },
    /** Items of the given type from `item/completed`, in order. */
    completed(type: string): Record<string, unknown>[] {
      return this.received('item/completed')
        .map((message) => message.params?.item as Record<string, unknown>)
        .filter((item) => item?.type === type)
    },
    started(type: string): Record<string, unknown>[] {
      return this.received('item/started')
        .map((message) => message.params?.item as Record<string, unknown>)
        .filter((item) => item?.type === type)
    },
  }
}

export type WireLog = ReturnType<typeof wireLog>

export const isNotification =
  (method: string, test: (params: Record<string, unknown>) => boolean = () => true) =>
  (entry: { direction: 'in' | 'out'; message: Message }) =>
    entry.direction === 'in' && entry.message.method === method && test(entry.message.params ?? {})
