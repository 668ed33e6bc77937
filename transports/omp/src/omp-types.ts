/**
 * The parts of OMP's provider API this transport touches, as declared in `can1357/oh-my-pi`
 * `packages/ai/src/types.ts` (steering.md §4.1). Declared here so the package needs no OMP dependency;
 * OMP's own objects satisfy these shapes structurally.
 */

export interface OmpTextContent {
  type: 'text'
  text: string
  [key: string]: unknown
}

export interface OmpImageContent {
  type: 'image'
  /** Base64 image data. */
  data: string
  mimeType: string
  [key: string]: unknown
}

/** OMP's provider-side user message. */
export interface UserMessage {
  role: 'user'
  content: string | readonly (OmpTextContent | OmpImageContent)[]
  /** Unix milliseconds. OMP always sets it; it is part of the message's identity here. */
  timestamp?: number
  synthetic?: boolean
  attribution?: 'user' | 'agent'
  [key: string]: unknown
}

/** One batch of queued user input taken for a provider call. Settles once. */
export interface LiveSteerClaim {
  readonly messages: readonly UserMessage[]
  accept(): void
  reject(): void
}

/** OMP's per-provider-call steering channel (`StreamOptions.liveSteering`). */
export interface LiveSteering {
  /** Resolves when something can be claimed, or when `signal` aborts. Never consumes. */
  wait(signal: AbortSignal): Promise<void>
  /** Takes the queued user messages as one batch, or `undefined` when there are none. */
  claim(signal: AbortSignal): Promise<LiveSteerClaim | undefined>
}
