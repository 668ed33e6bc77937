import { excerptText, joinExcerpt, truncationMarker } from '@harness-kernel/kernel'

export { joinExcerpt, truncationMarker }

/** Bytes of a hook's stderr kept from its start when it is too long to pass on whole. */
export const HOOK_TEXT_HEAD_BYTES = 16_384
/** Bytes of a hook's stderr kept from its end when it is too long to pass on whole. */
export const HOOK_TEXT_TAIL_BYTES = 16_384

/** Bytes of a long hook text kept, head and tail together, in a `hook/run` record (the model's copy is logged elsewhere). */
export const HOOK_RECORD_EXCERPT_BYTES = 2048

/**
 * The text whole when it is at most `headBytes + tailBytes` bytes of UTF-8 (an excerpt this cap already made, with
 * its marker, also passes whole), else its first `headBytes` and last `tailBytes` bytes around a marker saying how
 * much there was.
 */
export function capHookText(text: string, headBytes = HOOK_TEXT_HEAD_BYTES, tailBytes = HOOK_TEXT_TAIL_BYTES): string {
  return excerptText(text, headBytes, tailBytes)
}

/** `capHookText` with explicit sizes, for a text that may already be an excerpt (the kernel's `excerptText`). */
export const excerptHookText = excerptText
