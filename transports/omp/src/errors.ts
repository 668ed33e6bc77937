/** A misuse or an input the transport cannot carry. Always thrown, never swallowed: nothing is released silently. */
export class OmpSteeringError extends Error {
  override readonly name = 'OmpSteeringError'
}
