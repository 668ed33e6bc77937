import type { Reply } from './reply.js'

const KINDS = new Set(['message', 'error', 'frames', 'http', 'disconnect', 'no-answer'])

/** Throws a TypeError naming what is wrong with a reply, so that a bad script fails where it is written. */
export function checkReply(reply: Reply, where: string): void {
  if (typeof reply !== 'object' || reply === null) throw new TypeError(`${where}: a reply is an object, got ${JSON.stringify(reply)}`)
  const kind = reply.kind ?? 'message'
  if (!KINDS.has(kind)) throw new TypeError(`${where}: unknown reply kind ${JSON.stringify(kind)} (one of ${[...KINDS].join(', ')})`)
  if (reply.kind === 'error' || reply.kind === 'http') {
    if (!Number.isInteger(reply.status) || reply.status < 100 || reply.status > 599)
      throw new TypeError(`${where}: a ${reply.kind} reply needs an HTTP status (100-599), got ${JSON.stringify(reply.status)}`)
  }
  if (reply.kind === 'frames' && !(Array.isArray(reply.frames) && reply.frames.every((frame) => typeof frame === 'string')))
    throw new TypeError(`${where}: a frames reply needs frames, a list of strings`)
  if (reply.kind === undefined || reply.kind === 'message') {
    const { text, toolCalls } = reply
    if (text !== undefined && typeof text !== 'string' && !(Array.isArray(text) && text.every((part) => typeof part === 'string')))
      throw new TypeError(`${where}: a message reply's text is a string or a list of strings, got ${JSON.stringify(text)}`)
    for (const call of toolCalls ?? [])
      if (typeof call?.name !== 'string' || call.name === '')
        throw new TypeError(`${where}: a tool call without a name: ${JSON.stringify(call)}`)
  }
}
