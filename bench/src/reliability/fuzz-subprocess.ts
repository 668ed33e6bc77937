import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelProvider, SessionEvent } from '@harness-kernel/kernel'
import { type HooksConfig, hookKernel } from './hook-kernel.js'
import { type Prng, prng } from './prng.js'
import { randomHookReply } from './random-hook-reply.js'

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const
const FUZZED = '# fuzzed'
const WITNESS = '# witness'

export interface FuzzedSession {
  /** `turn.status`, or `threw: …` when starting, running or ending the session threw. */
  outcome: string
  /** The stdout kind each fuzzed handler printed, `<dialect>/<event>` → kind. */
  kinds: Record<string, string>
  /** Per `<dialect>/<event>`: how many `hook/run` records its fuzzed handler has, and the statuses of its witness's. */
  runs: Record<string, { fuzzed: number; witness: string[] }>
}

/** Asks for one shell call, then answers (again after a Stop continuation). */
const oneShellCallModel: ModelProvider = {
  id: 'one-shell-call',
  async generate(request) {
    const called = request.messages.some((message) => message.content.some((block) => block.type === 'tool_result'))
    if (called) return { content: [{ type: 'text', text: 'done' }] }
    return { content: [{ type: 'tool_call', id: 'call-1', name: 'shell', input: { command: 'echo hi' } }] }
  },
}

/**
 * Sessions whose hooks are real processes: on each of five events, per dialect, one handler prints a random reply
 * (raw bytes, from a file) and exits as drawn, and a witness handler beside it exits 0. The session must run its turn
 * to a status without throwing, and every witness run must arrive, whatever its neighbour printed.
 */
export async function runFuzzedSubprocessSessions(options: { seed: number; sessions: number }): Promise<FuzzedSession[]> {
  const rng = prng(options.seed)
  const sessions: FuzzedSession[] = []
  for (let n = 0; n < options.sessions; n++) sessions.push(await fuzzedSession(rng))
  return sessions
}

async function fuzzedSession(rng: Prng): Promise<FuzzedSession> {
  const replies = mkdtempSync(join(tmpdir(), 'hk-reliability-replies-'))
  const kinds: Record<string, string> = {}
  const hooksOf = (dialect: string): HooksConfig =>
    Object.fromEntries(
      EVENTS.map((event) => {
        const reply = randomHookReply(rng)
        const base = join(replies, `${dialect}-${event}`)
        writeFileSync(`${base}.out`, reply.stdout)
        writeFileSync(`${base}.err`, reply.stderr)
        kinds[`${dialect}/${event}`] = reply.kind
        // A reply that ended by a signal (or a timeout: the hanging-hooks scenario has those) is a SIGKILL here.
        const exit = reply.exitCode === null ? 'kill -9 $$' : `exit ${reply.exitCode}`
        const fuzzed = `cat '${base}.out'; cat '${base}.err' >&2; ${exit} ${FUZZED} ${dialect} ${event}`
        const witness = `true ${WITNESS} ${dialect} ${event}`
        return [event, [{ hooks: [fuzzed, witness].map((command) => ({ type: 'command', command, timeout: 30 })) }]]
      }),
    )
  const h = hookKernel({ model: oneShellCallModel, codex: hooksOf('codex'), claudeCode: hooksOf('claude-code') })
  let outcome: string
  let transcriptPath: string | undefined
  try {
    const session = await h.kernel.startSession()
    transcriptPath = session.transcriptPath
    outcome = (await session.run('go')).status
    await session.end()
  } catch (error) {
    outcome = `threw: ${error instanceof Error ? error.message : String(error)}`
  }
  const runs = transcriptPath === undefined ? {} : runsByHandler(transcriptPath)
  await h.dispose()
  rmSync(replies, { recursive: true, force: true })
  return { outcome, kinds, runs }
}

function runsByHandler(path: string): FuzzedSession['runs'] {
  const runs: FuzzedSession['runs'] = {}
  for (const line of readFileSync(path, 'utf8').trimEnd().split('\n')) {
    const event = JSON.parse(line) as SessionEvent
    if (event.type !== 'hook/run' || event.command === undefined) continue
    const [role, dialect, name] = event.command.split('# ')[1]!.split(' ')
    const key = `${dialect}/${name}`
    const entry = runs[key] ?? { fuzzed: 0, witness: [] }
    runs[key] = entry
    if (`# ${role}` === FUZZED) entry.fuzzed++
    else entry.witness.push(event.status)
  }
  return runs
}
