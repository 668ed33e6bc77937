import type { HandlerVerdict } from './handler-run.js'

const FENCED = /^```[A-Za-z]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/

/** Reads `{"ok": boolean, "reason"?: string}` from a model's answer, tolerating whitespace and a Markdown code fence; undefined if invalid. */
export function parsePromptVerdict(answer: string): HandlerVerdict | undefined {
  const trimmed = answer.trim()
  const body = FENCED.exec(trimmed)?.[1]?.trim() ?? trimmed
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const { ok, reason } = value as { ok?: unknown; reason?: unknown }
  if (typeof ok !== 'boolean') return undefined
  return typeof reason === 'string' ? { ok, reason } : { ok }
}
