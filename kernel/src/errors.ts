/** A misuse of the kernel's API or configuration (duplicate plugin names, a missing model, …). */
export class KernelError extends Error {
  override readonly name = 'KernelError'
}

/** A tap threw or returned an invalid decision. Carries the plugin it came from. */
export class HookTapError extends Error {
  override readonly name = 'HookTapError'
  readonly hook: string
  readonly plugin: string
  readonly tap: string

  constructor(options: { hook: string; plugin: string; tap: string; message: string; cause?: unknown }) {
    const who = options.plugin === options.tap ? `plugin "${options.plugin}"` : `plugin "${options.plugin}" (tap "${options.tap}")`
    super(`${who} failed in ${options.hook}: ${options.message}`, options.cause === undefined ? undefined : { cause: options.cause })
    this.hook = options.hook
    this.plugin = options.plugin
    this.tap = options.tap
  }
}

/** The rejection of a `session.steer()` receipt whose input was cancelled (the session ended first). */
export class SteeringCancelledError extends Error {
  override readonly name = 'SteeringCancelledError'
  readonly itemIds: readonly string[]

  constructor(itemIds: readonly string[], reason: string) {
    super(`steering input ${itemIds.join(', ')} was cancelled: ${reason}`)
    this.itemIds = itemIds
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
