import { readFileSync } from 'node:fs'
import { estimateTokens, type Session } from '@harness-kernel/kernel'

/**
 * Claude Code's prompt cache TTL for a resumed session whose last response says nothing of it: the API's default
 * (`5m`, as the recorded runs show; Claude Code's `1h` needs an account that has it). 2.1.332: the cache is "likely
 * expired" when `seconds_since_last_response >= TTL`.
 */
export const PROMPT_CACHE_TTL_SEC = 300

/**
 * List prices for writing the 5-minute prompt cache, USD per million tokens, by model id (prefix; the longest match
 * wins, so `claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`): Claude Code 2.1.332's model catalog
 * (`cache_write_5m` of each model's pricing tier).
 */
export const CACHE_WRITE_5M_USD_PER_MTOK: Readonly<Record<string, number>> = {
  'claude-3-5-haiku': 1,
  'claude-haiku-4-5': 1.25,
  'claude-haiku-5-5': 0.125,
  'claude-3-5-sonnet': 3.75,
  'claude-3-7-sonnet': 3.75,
  'claude-sonnet-4-0': 3.75,
  'claude-sonnet-4-5': 3.75,
  'claude-sonnet-4-6': 3.75,
  'claude-sonnet-5': 2.5,
  'claude-sonnet-5-5': 2.5,
  'claude-opus-4-0': 18.75,
  'claude-opus-4-1': 18.75,
  'claude-opus-4-5': 6.25,
  'claude-opus-4-6': 6.25,
  'claude-opus-4-7': 6.25,
  'claude-opus-4-8': 6.25,
  'claude-opus-5': 6.25,
  'claude-opus-5-5': 5,
  'claude-fable-5': 12.5,
  'claude-fable-5-1': 12.5,
  'claude-fable-5-2': 10,
  'claude-mythos-5': 12.5,
  'claude-mythos-5-1': 12.5,
  'claude-mythos-5-2': 10,
}

/** Claude Code's price for a model it does not know (its default tier, `cache_write_5m` 6.25). */
export const DEFAULT_CACHE_WRITE_5M_USD_PER_MTOK = 6.25

/** The resume fields of SessionStart `resume`, in Claude Code's order. */
export interface ResumeFields {
  seconds_since_last_response: number
  context_tokens: number
  prompt_cache_likely_expired: boolean
  estimated_cache_write_usd: number
}

/**
 * SessionStart `resume`'s cache bookkeeping, computed as Claude Code 2.1.332 does from what the kernel's log holds;
 * undefined (the fields left out, as Claude Code does) when the session has no assistant message yet:
 * - `seconds_since_last_response`: since the last assistant message was recorded (its event's `at`);
 * - `context_tokens`: what the next request re-sends, the last response's usage (input + output) plus anything after it
 *   by characters (`estimateTokens` over the conversation as it is now, so after a compaction the summary's estimate);
 * - `prompt_cache_likely_expired`: those seconds reach the cache TTL (5 minutes); always, when a compaction came after
 *   the last response with usage (the compacted conversation was never cached);
 * - `estimated_cache_write_usd`: writing `context_tokens` to the 5-minute cache at the model's list price, rounded to
 *   4 decimals (the model is `model`, the dialect's model name; unknown models at Claude Code's default price).
 */
export function resumeFields(
  session: Pick<Session, 'transcriptPath' | 'messages'>,
  model: string,
  now = Date.now(),
): ResumeFields | undefined {
  const last = lastResponse(session.transcriptPath)
  if (last === undefined) return undefined
  const seconds = Math.max(0, Math.round((now - last.at) / 1000))
  const tokens = Math.round(estimateTokens({ messages: [...session.messages], tools: [] }))
  return {
    seconds_since_last_response: seconds,
    context_tokens: tokens,
    prompt_cache_likely_expired: last.compactedSince || seconds >= PROMPT_CACHE_TTL_SEC,
    estimated_cache_write_usd: Math.round(((tokens * cacheWritePrice(model)) / 1e6) * 1e4) / 1e4,
  }
}

/** USD per million tokens to write the 5-minute cache for `model`. */
export function cacheWritePrice(model: string): number {
  let best: string | undefined
  for (const id of Object.keys(CACHE_WRITE_5M_USD_PER_MTOK))
    if ((model === id || model.startsWith(`${id}-`)) && (best === undefined || id.length > best.length)) best = id
  return best === undefined ? DEFAULT_CACHE_WRITE_5M_USD_PER_MTOK : (CACHE_WRITE_5M_USD_PER_MTOK[best] as number)
}

/**
 * The last assistant message in the kernel's log: when it was recorded, and whether a compaction came after the last
 * one with usage (a response since the compaction is cached again).
 */
function lastResponse(logPath: string): { at: number; compactedSince: boolean } | undefined {
  let text: string
  try {
    text = readFileSync(logPath, 'utf8')
  } catch {
    return undefined
  }
  let at: number | undefined
  let compactedSince = false
  for (const line of text.split('\n')) {
    if (line === '') continue
    let event: { type?: unknown; at?: unknown; message?: { role?: unknown; meta?: { usage?: unknown } } }
    try {
      event = JSON.parse(line)
    } catch {
      continue
    }
    if (event.type === 'compaction') compactedSince = true
    if (event.type !== 'message' || event.message?.role !== 'assistant' || typeof event.at !== 'string') continue
    const time = Date.parse(event.at)
    if (Number.isNaN(time)) continue
    at = time
    if (event.message.meta?.usage !== undefined) compactedSince = false
  }
  return at === undefined ? undefined : { at, compactedSince }
}
