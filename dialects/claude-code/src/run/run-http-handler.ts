import type { HttpHandler } from '../types.js'
import { describeFetchError } from './fetch-error.js'
import { type HandlerRunOutcome, type HandlerRunSpec, outcomeOf } from './handler-run.js'
import { effectiveEnv, interpolateHeaderValue } from './header-interpolation.js'
import { payloadJsonOf } from './payload-json.js'
import { timeoutSignal, timeoutText } from './timeout-signal.js'

/** `Content-Type: application/json`, then the configured headers with their allowed variables expanded. */
export function httpHeaders(
  handler: Pick<HttpHandler, 'headers' | 'allowedEnvVars'>,
  env: Readonly<Record<string, string | undefined>>,
): Headers {
  const headers = new Headers({ 'Content-Type': 'application/json' })
  const environment = effectiveEnv(env)
  for (const [name, value] of Object.entries(handler.headers)) {
    headers.set(name, interpolateHeaderValue(value, handler.allowedEnvVars, environment))
  }
  return headers
}

/**
 * POSTs the payload JSON (the stdin without its final newline) to `handler.url`. A 2xx body is the handler's stdout; any
 * other status, a network failure or a timeout is a non-blocking error. Redirects are not followed: the URL allow-list was
 * checked against the configured URL. Never throws.
 */
export async function runHttpHandler(fetchImpl: typeof fetch, handler: HttpHandler, spec: HandlerRunSpec): Promise<HandlerRunOutcome> {
  const started = performance.now()
  const deadline = timeoutSignal(spec.timeoutMs, spec.signal)
  const finish = outcomeOf('http', started)
  if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
  if (!URL.canParse(handler.url)) return finish({ error: `invalid URL: ${handler.url}` })
  try {
    const response = await fetchImpl(handler.url, {
      method: 'POST',
      headers: httpHeaders(handler, spec.env),
      body: payloadJsonOf(spec.stdin),
      signal: deadline.signal,
      redirect: 'manual',
    })
    const body = await response.text()
    if (response.ok) return finish({ exitCode: 0, stdout: body, httpStatus: response.status })
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
    return finish({ stderr: body, httpStatus: response.status, error: status })
  } catch (error) {
    if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
    if (deadline.timedOut()) return finish({ timedOut: true, error: timeoutText(spec.timeoutMs) })
    return finish({ error: describeFetchError(error) })
  }
}
