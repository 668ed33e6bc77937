import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionEvent } from '@harness-kernel/kernel'
import { prng } from './prng.js'
import { SessionChild } from './session-child.js'

/** Where in a round the child is killed: right after a steer was sent, after a receipt came back, in a tool, in a model call. */
const KILL_POINTS = ['after-steer', 'after-receipt', 'in-tool', 'in-sampling'] as const
export type KillPoint = (typeof KILL_POINTS)[number]

export interface KillResumeResult {
  seed: number
  rounds: number
  killPoints: KillPoint[]
  /** Steered texts sent to the children. */
  sent: string[]
  /** Texts whose receipt said `recorded` before their process was killed. */
  recorded: string[]
  /** Texts of the log's steering messages, in log order. */
  loggedTexts: string[]
  /** Kernel notices taking over a dead process's lock. */
  takeovers: number
  /** The status of the turn run after the last resume. */
  finalTurn: string
  /** Whether the log's `seq` numbers run 1, 2, 3, … */
  sequential: boolean
}

/**
 * `rounds` times: a child process resumes the session (the first one starts it), runs turns with tool calls while the
 * parent steers into it, and is SIGKILLed at a drawn point. Then a last child resumes, runs a turn and ends the session.
 */
export async function runKillResume(options: { seed: number; rounds: number }): Promise<KillResumeResult> {
  const rng = prng(options.seed)
  const dir = mkdtempSync(join(tmpdir(), 'hk-reliability-kill-'))
  const cwd = join(dir, 'project')
  mkdirSync(cwd)
  const id = 'killed-and-resumed'
  const sent: string[] = []
  const recorded: string[] = []
  const killPoints: KillPoint[] = []
  for (let round = 0; round < options.rounds; round++) {
    const child = new SessionChild({ dir, cwd, id })
    try {
      child.send(round === 0 ? 'start' : 'resume')
      await expectReady(child)
      child.send('loop')
      const point = rng.pick(KILL_POINTS)
      killPoints.push(point)
      const steers = 1 + rng.int(12)
      for (let n = 0; n < steers; n++) {
        await new Promise((resolve) => setTimeout(resolve, rng.int(8)))
        const text = `KILL-STEER-${round}-${n}`
        sent.push(text)
        child.send(`steer ${text}`)
      }
      if (point === 'after-receipt') await child.next('receipt')
      else if (point === 'in-tool') await child.next('tool')
      else if (point === 'in-sampling') await child.next('sampling')
      await child.kill()
    } finally {
      if (child.process.exitCode === null && child.process.signalCode === null) await child.kill()
    }
    for (const report of child.reports) if (report.event === 'receipt' && report.state === 'recorded') recorded.push(String(report.text))
  }
  const last = new SessionChild({ dir, cwd, id })
  let finalTurn: string
  try {
    last.send('resume')
    await expectReady(last)
    last.send('turn')
    finalTurn = String((await last.next('turn')).status)
    last.send('end')
    await last.next('ended')
    last.send('exit')
    await last.exited
  } finally {
    if (last.process.exitCode === null) await last.kill()
  }
  const log = readFileSync(join(cwd, '.harness', 'sessions', `${id}.jsonl`), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
  rmSync(dir, { recursive: true, force: true })
  return {
    seed: options.seed,
    rounds: options.rounds,
    killPoints,
    sent,
    recorded,
    loggedTexts: log.flatMap((event) =>
      event.type === 'message' && event.message.source.kind === 'steering'
        ? event.message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
        : [],
    ),
    takeovers: log.filter((event) => event.type === 'notice' && event.text.includes('took over the stale lock')).length,
    finalTurn,
    sequential: log.every((event, index) => event.seq === index + 1),
  }
}

async function expectReady(child: SessionChild): Promise<void> {
  const ready = await child.next('ready')
  if (ready.event !== 'ready') throw new Error(`child ${child.pid} could not open the session: ${String(ready.message)}`)
}

/** Counts from a result: what the bench reports and the test asserts to be zero. */
export function killResumeViolations(result: KillResumeResult): { lost: string[]; doubled: string[]; unknown: string[] } {
  const times = (text: string) => result.loggedTexts.filter((logged) => logged === text).length
  return {
    lost: result.recorded.filter((text) => times(text) === 0),
    doubled: result.sent.filter((text) => times(text) > 1),
    unknown: result.loggedTexts.filter((text) => !result.sent.includes(text)),
  }
}
