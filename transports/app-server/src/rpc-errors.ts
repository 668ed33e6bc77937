/** JSON-RPC error codes used on the wire (codex-app-server.md §8). */
export const INVALID_REQUEST = -32600
/** JSON-RPC's "method not found", which Codex also answers for an operation it does not support (yet). */
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603
export const SERVER_OVERLOADED = -32001

/** An error a request handler throws to answer with `{error:{code,message}}`. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

export function invalidRequest(message: string): RpcError {
  return new RpcError(INVALID_REQUEST, message)
}
