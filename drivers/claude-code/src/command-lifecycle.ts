/**
 * Claude Code's receipts for submitted messages (`command_lifecycle` frames). They come through the
 * SDK's iterator although its `SDKMessage` type does not list them; only messages with a `uuid` get them.
 */
export type LifecycleState = 'queued' | 'started' | 'completed' | 'cancelled' | 'discarded' | 'refused'

export interface LifecycleFrame {
  type: 'command_lifecycle'
  command_uuid: string
  state: LifecycleState
  /**
   * Only on `cancelled`, from a Claude Code that advertises `lifecycle_idle_v1`: as the frame was written no turn was
   * under way and nothing that would start one was queued, held or taken, so no `result` is owed.
   */
  idle?: boolean
  written_at?: string
}

export const LIFECYCLE_IDLE = 'lifecycle_idle_v1'

const ENDS_ADMISSION: readonly LifecycleState[] = ['cancelled', 'discarded', 'refused']

/** Every frame seen per message uuid, and waiters for a state. */
export class CommandLifecycle {
  readonly #states = new Map<string, LifecycleState[]>()
  readonly #waiters = new Set<() => void>()
  #idleAdvertised = false

  /** Claude Code's `system/init` capabilities: whether its `cancelled` frames say `idle`. */
  advertise(capabilities: unknown): void {
    if (Array.isArray(capabilities)) this.#idleAdvertised = capabilities.includes(LIFECYCLE_IDLE)
  }

  get idleAdvertised(): boolean {
    return this.#idleAdvertised
  }

  /** Claude Code has read the message (a frame named it): `idle` does not cover a message it has not read. */
  read(uuid: string): boolean {
    return this.#states.has(uuid)
  }

  observe(frame: LifecycleFrame): void {
    const states = this.#states.get(frame.command_uuid) ?? []
    states.push(frame.state)
    this.#states.set(frame.command_uuid, states)
    for (const waiter of [...this.#waiters]) waiter()
  }

  has(uuid: string, state: LifecycleState): boolean {
    return this.#states.get(uuid)?.includes(state) ?? false
  }

  /** True once `queued` arrived; false at the deadline, or when Claude Code cancelled or refused the message first. */
  admitted(uuid: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.has(uuid, 'queued')) return finish(true)
        if (ENDS_ADMISSION.some((state) => this.has(uuid, state))) finish(false)
      }
      const timer = setTimeout(() => finish(false), timeoutMs)
      const finish = (admitted: boolean) => {
        clearTimeout(timer)
        this.#waiters.delete(check)
        resolve(admitted)
      }
      this.#waiters.add(check)
      check()
    })
  }
}

export function isLifecycleFrame(message: { type: string }): message is LifecycleFrame {
  return message.type === 'command_lifecycle' && typeof (message as Partial<LifecycleFrame>).command_uuid === 'string'
}

/** `UserPromptSubmit operation blocked by hook` for a folded message: the frame names no uuid, only the prompt. */
export interface BlockedPrompt {
  reason: string
  prompt: string | undefined
}

export function blockedPromptOf(message: { type: string; subtype?: string }): BlockedPrompt | undefined {
  if (message.type !== 'system' || message.subtype !== 'informational') return undefined
  const frame = message as { content?: unknown; prompt_submit_outcome?: { kind?: unknown; reason?: unknown } }
  if (frame.prompt_submit_outcome?.kind !== 'blocked_by_hook') return undefined
  const content = typeof frame.content === 'string' ? frame.content : ''
  const marker = content.lastIndexOf('\n\nOriginal prompt: ')
  return {
    reason:
      typeof frame.prompt_submit_outcome.reason === 'string' ? frame.prompt_submit_outcome.reason : 'blocked by a UserPromptSubmit hook',
    prompt: marker >= 0 ? content.slice(marker + '\n\nOriginal prompt: '.length) : undefined,
  }
}
