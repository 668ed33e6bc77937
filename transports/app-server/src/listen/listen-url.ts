import { isIPv4, isIPv6 } from 'node:net'

/** Where `harness app-server` serves, as `--listen` names it (Codex 0.171.0's URLs). */
export type ListenTarget =
  | { transport: 'stdio' }
  /** `path` undefined: the default control socket, `$HARNESS_HOME/app-server-control/app-server-control.sock`. */
  | { transport: 'unix'; path: string | undefined }
  | { transport: 'ws'; host: string; port: number }
  | { transport: 'off' }

/** A `--listen` value that names no transport; the message is Codex's. */
export class ListenUrlError extends Error {
  override readonly name: string = 'ListenUrlError'
}

const EXPECTED = 'expected `stdio://`, `unix://`, `unix://PATH`, `ws://IP:PORT`, or `off`'

/**
 * Parses a `--listen` value as Codex 0.171.0 does: exact lower-case schemes, and `ws://` followed by nothing but a
 * socket address (an IPv4 address or a bracketed IPv6 one, and a port; no host name, path, query or user).
 */
export function parseListenUrl(text: string): ListenTarget {
  if (text === 'stdio://') return { transport: 'stdio' }
  if (text === 'off') return { transport: 'off' }
  if (text.startsWith('unix://')) {
    const path = text.slice('unix://'.length)
    return { transport: 'unix', path: path === '' ? undefined : path }
  }
  if (text.startsWith('ws://')) {
    const address = parseSocketAddress(text.slice('ws://'.length))
    if (!address) throw new ListenUrlError(`invalid websocket --listen URL \`${text}\`; expected \`ws://IP:PORT\``)
    return { transport: 'ws', ...address }
  }
  throw new ListenUrlError(`unsupported --listen URL \`${text}\`; ${EXPECTED}`)
}

function parseSocketAddress(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text)
  if (!match) return undefined
  const [, ipv6, ipv4, portText] = match
  const port = Number(portText)
  if (port > 65_535) return undefined
  if (ipv6 !== undefined) return isIPv6(ipv6) && !ipv6.includes('%') ? { host: ipv6, port } : undefined
  return ipv4 !== undefined && isIPv4(ipv4) ? { host: ipv4, port } : undefined
}

/** As Rust's `IpAddr::is_loopback`, which Codex asks: 127.0.0.0/8 and `::1` (not `::ffff:127.0.0.1`). */
export function isLoopback(host: string): boolean {
  if (isIPv4(host)) return host.startsWith('127.')
  return isIPv6(host) && new URL(`http://[${host}]`).hostname === '[::1]'
}

/** `127.0.0.1:8080`, `[::1]:8080`: a socket address as Codex prints it. */
export function socketAddress(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`
}
