import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The Claude Code dialect's test hook (`recorder.sh EVENT TAG`): it records each call's stdin, environment and cwd under
 * `$HOOK_OUT`, and replies from `$HOOK_RESP/<EVENT>-<TAG>.<ext>` (`waitfor`, `stderr`, `stdout`, `exit`; see the script).
 */
export const RECORDER = fileURLToPath(new URL('../../../../dialects/claude-code/test/fixtures/recorder.sh', import.meta.url))

export interface RecordedHookCall {
  event: string
  tag: string
  stdin: string
  payload: Record<string, unknown>
  env: Record<string, string>
  cwd: string
  /** The hook has finished (its reply written). */
  ended: boolean
}

/** A settings.json command handler that records as `<event>/<tag>`. */
export const recorderHook = (event: string, tag = 'main') => ({ type: 'command', command: `${RECORDER} ${event} ${tag}` })

/** Whether a call of `event`/`tag` has been recorded in full (the recorder writes its pid file last). */
export const hookRecorded = (out: string, event: string, tag = 'main'): boolean => existsSync(join(out, `${event}-${tag}.pid`))

/** The calls recorded so far in `out`, in the order they started; only `event`'s when given. */
export function recordedCalls(out: string, event?: string): RecordedHookCall[] {
  let names: string[]
  try {
    names = readdirSync(out)
  } catch {
    return []
  }
  return names
    .filter((name) => name.endsWith('.stdin'))
    .sort()
    .flatMap((name) => {
      const [, ev, tag] = name.match(/^\d+-([A-Za-z]+)-([^-]+)-\d+\.stdin$/) ?? []
      if (ev === undefined || tag === undefined || (event !== undefined && ev !== event)) return []
      const base = join(out, name.slice(0, -'.stdin'.length))
      const stdin = readFileSync(`${base}.stdin`, 'utf8')
      const meta = keyValues(readFileSync(`${base}.meta`, 'utf8'))
      return [
        {
          event: ev,
          tag,
          stdin,
          payload: JSON.parse(stdin) as Record<string, unknown>,
          env: keyValues(readFileSync(`${base}.env`, 'utf8')),
          cwd: meta.cwd ?? '',
          ended: meta.ended !== undefined,
        },
      ]
    })
}

function keyValues(text: string): Record<string, string> {
  const entries: [string, string][] = []
  for (const line of text.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) entries.push([line.slice(0, at), line.slice(at + 1)])
  }
  return Object.fromEntries(entries)
}
