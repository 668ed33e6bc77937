/**
 * Cutting a text that reaches a model down to its two ends, with a marker in the middle saying how much there was:
 * hook texts (the dialects) and tool outputs (the kernel's tool step) use the same marker.
 */

/** `…[truncated: 1,073,741,824 bytes in all; the first 16,384 and last 16,384 shown]…` */
export function truncationMarker(totalBytes: number, headBytes: number, tailBytes: number): string {
  const n = (value: number) => value.toLocaleString('en-US')
  return `\n…[truncated: ${n(totalBytes)} bytes in all; the first ${n(headBytes)} and last ${n(tailBytes)} shown]…\n`
}

/**
 * `head` + marker + `tail`, each cut back to whole UTF-8 characters. `totalBytes` is the size of the whole text, which
 * may be larger than `head` and `tail` together (the middle was never kept).
 */
export function joinExcerpt(head: Uint8Array, tail: Uint8Array, totalBytes: number): string {
  const headEnd = wholeCharsEnd(head)
  const tailStart = wholeCharsStart(tail)
  const headText = Buffer.from(head.buffer, head.byteOffset, headEnd).toString('utf8')
  const tailText = Buffer.from(tail.buffer, tail.byteOffset + tailStart, tail.length - tailStart).toString('utf8')
  return headText + truncationMarker(totalBytes, headEnd, tail.length - tailStart) + tailText
}

/** The longest marker `truncationMarker` writes (three 16-digit numbers). */
const MARKER_MAX_BYTES = 128
const MARKER_TOTAL = /…\[truncated: ([\d,]+) bytes in all;/

/**
 * The text whole when it is at most `headBytes + tailBytes` bytes of UTF-8, else its first `headBytes` and last
 * `tailBytes` bytes around a marker saying how much there was. A text that is already an excerpt (with its marker)
 * passes whole, and a marker states the size of the original: the largest `… bytes in all` found in the text, or its
 * own size.
 */
export function excerptText(text: string, headBytes: number, tailBytes: number): string {
  if (text.length <= (headBytes + tailBytes) / 3) return text
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= headBytes + tailBytes) return text
  const stated = MARKER_TOTAL.exec(text)?.[1]
  if (stated !== undefined && bytes.length <= headBytes + tailBytes + MARKER_MAX_BYTES) return text
  const total = Math.max(bytes.length, stated === undefined ? 0 : Number(stated.replaceAll(',', '')))
  return joinExcerpt(bytes.subarray(0, headBytes), bytes.subarray(bytes.length - tailBytes), total)
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80

/** Length of the prefix made of whole characters. */
function wholeCharsEnd(bytes: Uint8Array): number {
  let end = bytes.length
  let back = 0
  while (end - back - 1 >= 0 && back < 3 && isContinuation(bytes[end - back - 1])) back++
  const lead = bytes[end - back - 1]
  if (lead === undefined || lead < 0xc0) return end
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2
  if (back + 1 < width) end -= back + 1
  return end
}

/** Offset of the first character that starts inside `bytes`. */
function wholeCharsStart(bytes: Uint8Array): number {
  let start = 0
  while (start < bytes.length && start < 3 && isContinuation(bytes[start])) start++
  return start
}
