import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { RecordedHookCall } from './hook-recorder.js'

/** The Claude Code dialect's golden payloads (their README gives the format and the placeholders). */
export const GOLDEN_DIR = fileURLToPath(new URL('../../../../dialects/claude-code/test/fixtures/golden/', import.meta.url))

/** The variables Claude Code sets for its hooks, as the golden fixtures keep them. */
const CLAUDE_SET_ENV = [
  'AI_AGENT',
  'CLAUDECODE',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'CLAUDE_CODE_SESSION_ATTENDED',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_EFFORT',
  'CLAUDE_ENV_FILE',
  'CLAUDE_PID',
  'CLAUDE_PROJECT_DIR',
  'COREPACK_ENABLE_AUTO_PIN',
  'NoDefaultCurrentDirectoryInExePath',
]

export interface GoldenHookCall {
  stdin: string
  env: Record<string, string>
  cwd: string
  captured: string
  placeholders: string[]
}

/** A recorded call as a golden fixture: the run's own values replaced by the fixtures' placeholders. */
export function goldenOf(call: RecordedHookCall, captured: string): GoldenHookCall {
  const payload = call.payload
  const project = String(payload.cwd)
  const env = call.env
  // [the run's value, what stands for it, the placeholder], longest values first.
  const values: [string | undefined, string, string][] = [
    [String(payload.transcript_path), '<TRANSCRIPT>', '<TRANSCRIPT>'],
    [project, '<PROJECT>', '<PROJECT>'],
    [project.replace(/[^a-zA-Z0-9]/g, '-'), '<MUNGED_PROJECT>', '<MUNGED_PROJECT>'],
    [String(payload.session_id), '<SESSION_ID>', '<SESSION_ID>'],
    [payload.prompt_id as string | undefined, '<PROMPT_ID>', '<PROMPT_ID>'],
    [env.CLAUDE_CODE_MESSAGING_TOKEN, '<MESSAGING_TOKEN>', '<MESSAGING_TOKEN>'],
    [env.CLAUDE_PID && `/${env.CLAUDE_PID}.sock`, '/<CLAUDE_PID>.sock', '<CLAUDE_PID>'],
    [`/tmp/claude-${process.getuid?.() ?? 0}/`, '/tmp/claude-<UID>/', '<UID>'],
  ]
  const placeholders = new Set<string>()
  const substitute = (text: string) =>
    values.reduce((result, [value, replacement, placeholder]) => {
      if (value === undefined || !result.includes(value)) return result
      placeholders.add(placeholder)
      return result.replaceAll(value, replacement)
    }, text)
  const claudeEnv: Record<string, string> = {}
  for (const name of CLAUDE_SET_ENV) {
    const value = env[name]
    if (value === undefined) continue
    if (name === 'CLAUDE_PID') placeholders.add('<CLAUDE_PID>')
    claudeEnv[name] = name === 'CLAUDE_PID' ? '<CLAUDE_PID>' : substitute(value)
  }
  return { stdin: substitute(call.stdin), env: claudeEnv, cwd: substitute(call.cwd), captured, placeholders: [...placeholders].sort() }
}

/**
 * The fixture `name` as it is committed; with HARNESS_CAPTURE_GOLDEN=1, first (re)written from `golden`, so a run
 * against a new Claude Code re-captures it.
 */
export function committedGolden(name: string, golden: GoldenHookCall): GoldenHookCall | undefined {
  const path = `${GOLDEN_DIR}${name}`
  if (process.env.HARNESS_CAPTURE_GOLDEN === '1') writeFileSync(path, `${JSON.stringify(golden, null, 2)}\n`)
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as GoldenHookCall) : undefined
}
