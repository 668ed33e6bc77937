import type { ApiDialect, ReplyContext } from './dialect.js'
import type { OtherReply } from './reply.js'
import type { ReplyStream } from './reply-stream.js'

/** Writes a reply other than a message: an API error, raw frames, any HTTP answer, a closed connection, or nothing. */
export async function writeReply(dialect: ApiDialect, out: ReplyStream, reply: OtherReply, context: ReplyContext): Promise<void> {
  switch (reply.kind) {
    case 'error': {
      const { headers, body } = dialect.errorAnswer(reply, context)
      out.head(reply.status, { 'content-type': 'application/json', ...headers })
      return out.end(JSON.stringify(body))
    }
    case 'frames': {
      out.head(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...reply.headers })
      for (const frame of reply.frames) await out.flushed(frame)
      if (reply.after === 'disconnect') return out.disconnect()
      if (reply.after === 'hold') return out.holdOpen()
      return out.end()
    }
    case 'http': {
      const json = reply.body !== undefined && typeof reply.body !== 'string'
      out.head(reply.status, { ...(json ? { 'content-type': 'application/json' } : {}), ...reply.headers })
      return out.end(reply.body === undefined ? undefined : json ? JSON.stringify(reply.body) : String(reply.body))
    }
    case 'disconnect':
      return out.disconnect()
    default:
      return
  }
}
