import { z } from 'zod'
import type { MethodContext, MethodHandler } from './method-context.js'
import { objectParams } from './method-params.js'

const skillsListParamsSchema = z.object({ cwds: z.array(z.string()).nullish(), forceReload: z.boolean().nullish() })

/**
 * `skills/list`: the harness has no skills (no skill discovery, no `$skill` mentions): every cwd asked for (the
 * kernel's cwd when none is) with no skills and no errors.
 */
async function skillsList(params: unknown, context: MethodContext) {
  const parsed = objectParams(skillsListParamsSchema, params)
  const cwds = parsed.cwds && parsed.cwds.length > 0 ? parsed.cwds : [(await context.kernel()).cwd]
  return { data: cwds.map((cwd) => ({ cwd, skills: [], errors: [] })) }
}

export const SKILLS_METHODS: Readonly<Record<string, MethodHandler>> = {
  'skills/list': skillsList,
}
