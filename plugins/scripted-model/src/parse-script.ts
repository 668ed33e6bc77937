import type { z } from 'zod'
import { ScriptError } from './script-error.js'
import { type ScriptStep, scriptErrorStepSchema, scriptReplyStepSchema } from './script-step.js'

/**
 * Validates a parsed script: a list of steps or `{ steps: [...] }`. `source` names the script in errors
 * (`script.yaml: step 3: tool_calls.0.name: expected string, received number`). Steps are numbered from 1,
 * so step n answers request n.
 */
export function parseScript(data: unknown, source: string): ScriptStep[] {
  const list = stepList(data, source)
  const steps: ScriptStep[] = []
  const problems: string[] = []
  list.forEach((raw, index) => {
    // Dispatching on `error` keeps messages about the step the author meant, not a union's every branch.
    const schema = isRecord(raw) && 'error' in raw ? scriptErrorStepSchema : scriptReplyStepSchema
    const result = schema.safeParse(raw, { error: issueMessage })
    if (result.success) steps.push(result.data as ScriptStep)
    else for (const issue of result.error.issues) problems.push(`${source}: step ${index + 1}: ${describeIssue(issue)}`)
  })
  if (problems.length > 0) throw new ScriptError(problems.join('\n'))
  return steps
}

function stepList(data: unknown, source: string): unknown[] {
  if (Array.isArray(data)) return data
  if (isRecord(data) && 'steps' in data) {
    const extra = Object.keys(data).filter((key) => key !== 'steps')
    if (extra.length > 0) throw new ScriptError(`${source}: unrecognized top-level key(s) ${extra.map((key) => `"${key}"`).join(', ')}`)
    if (Array.isArray(data.steps)) return data.steps
    throw new ScriptError(`${source}: "steps" must be a list`)
  }
  throw new ScriptError(`${source}: expected a list of steps or an object with a "steps" list`)
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}

function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined
  if (issue.input === undefined) return issue.expected === 'nonoptional' ? 'required' : `required (expected ${issue.expected})`
  return `expected ${issue.expected}, received ${kindOf(issue.input)}`
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
