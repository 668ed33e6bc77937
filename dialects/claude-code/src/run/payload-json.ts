/** The payload JSON itself: the stdin bytes without their final newline. It is the http body and what replaces `$ARGUMENTS`. */
export function payloadJsonOf(stdin: string): string {
  return stdin.endsWith('\n') ? stdin.slice(0, -1) : stdin
}
