import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** A request body as sent, decompressed when the client compressed it (`content-encoding`). */
export function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  if (encoding === undefined || encoding === 'identity') return raw
  if (encoding === 'gzip') return gunzipSync(raw)
  if (encoding === 'br') return brotliDecompressSync(raw)
  if (encoding === 'deflate') return inflateSync(raw)
  throw new Error(`a body in ${encoding}, which this server does not read (gzip, br, deflate)`)
}

/** The parsed JSON body; the text when it is not JSON; undefined when empty. */
export function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
