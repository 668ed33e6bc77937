/** An invalid or unreadable script. The message starts with the file (or `script` for an in-memory array). */
export class ScriptError extends Error {
  override readonly name = 'ScriptError'
}
