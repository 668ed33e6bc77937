import type { RelayedEnd } from './relayed-request.js'

/** What happened to a relayed request: `asked` (for its front-end), `answered` (for its owner), or its end (for its front-end). */
export type AskEvent = 'asked' | 'answered' | RelayedEnd

/** The payload of a notification on the asks channel: the instance it is for, the request, and what happened to it. */
export interface AskNote {
  to: string
  id: string
  event: AskEvent
}

const EVENTS: ReadonlySet<string> = new Set<AskEvent>(['asked', 'answered', 'expired', 'resolved'])

export function noteText(note: AskNote): string {
  return JSON.stringify(note)
}

/** The note in a payload; undefined for anything else on the channel. */
export function parseNote(payload: string): AskNote | undefined {
  try {
    const note = JSON.parse(payload) as Partial<AskNote> | null
    if (typeof note?.to === 'string' && typeof note.id === 'string' && typeof note.event === 'string' && EVENTS.has(note.event))
      return { to: note.to, id: note.id, event: note.event }
  } catch {
    // Not a note of this store's.
  }
  return undefined
}
