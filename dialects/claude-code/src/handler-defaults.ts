import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ClaudeHandler } from './types.js'

/** Claude Code's default handler timeouts (claude-code-hooks.md §4). */
export const DEFAULT_TIMEOUT_SEC = 600
const PROMPT_TIMEOUT_SEC = 30
const EVENT_TIMEOUT_SEC: Readonly<Record<string, number>> = { UserPromptSubmit: 30, MessageDisplay: 10 }
const DEFAULT_SESSION_END_MS = 1500
const MAX_SESSION_END_MS = 60_000
const DEFAULT_STOP_HOOK_BLOCK_CAP = 8

/** The configured `timeout`, else 30 s for prompt handlers and on UserPromptSubmit, 10 s on MessageDisplay, else the default. */
export function handlerTimeoutSec(handler: ClaudeHandler, defaultTimeoutSec = DEFAULT_TIMEOUT_SEC): number {
  return handler.timeoutSec ?? (handler.type === 'prompt' ? PROMPT_TIMEOUT_SEC : (EVENT_TIMEOUT_SEC[handler.event] ?? defaultTimeoutSec))
}

/** The budget every SessionEnd handler shares: the option, else `$CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, else 1.5 s; at most 60 s. */
export function sessionEndBudgetMs(option: number | undefined, env: NodeJS.ProcessEnv): number {
  return Math.min(option ?? positiveInteger(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) ?? DEFAULT_SESSION_END_MS, MAX_SESSION_END_MS)
}

/**
 * Stop-hook continuations allowed in a row: the option, else `$CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, else 8; 0 means no cap.
 * The block after them ends the turn: with the default, the 9th [obs].
 */
export function stopHookBlockCap(option: number | undefined, env: NodeJS.ProcessEnv): number {
  const fromEnv = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim()
  return option ?? (fromEnv !== undefined && /^\d+$/.test(fromEnv) ? Number(fromEnv) : DEFAULT_STOP_HOOK_BLOCK_CAP)
}

export const DEFAULT_ENV_FILE_DIR = join(tmpdir(), 'harness-claude-code', 'session-env')
/** Where hook output over 10,000 characters is saved, one folder per session. */
export const DEFAULT_HOOK_OUTPUT_DIR = join(tmpdir(), 'harness-claude-code', 'hook-output')

/** A SessionStart hook's `CLAUDE_ENV_FILE`: `<dir>/<session>/sessionstart-hook-<n>.sh`, its folder created; undefined if it cannot be. */
export function sessionEnvFile(dir: string, sessionId: string, index: number): string | undefined {
  const safeId = /^[A-Za-z0-9_.-]+$/.test(sessionId) && sessionId !== '.' && sessionId !== '..' ? sessionId : 'session'
  const folder = join(dir, safeId)
  try {
    mkdirSync(folder, { recursive: true })
  } catch {
    return undefined
  }
  return join(folder, `sessionstart-hook-${index}.sh`)
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined
  const number = Number(value)
  return number > 0 ? number : undefined
}
