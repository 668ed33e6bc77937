/**
 * A tool call's `arguments` as the kernel's `input`. JSON (an object, as models send) is parsed; anything else (a
 * model's malformed JSON) is kept as the raw string, so the tool's input validation answers the model with an error
 * it can correct, and the call is replayed to the model exactly as it was sent. Empty arguments are `{}`.
 */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'string' ? text : value
  } catch {
    return text
  }
}

/** The inverse of `parseToolArguments`: a string input is the model's raw arguments, sent back verbatim. */
export function serializeToolArguments(input: unknown): string {
  if (typeof input === 'string') return input
  return JSON.stringify(input ?? {})
}
