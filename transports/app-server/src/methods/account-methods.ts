import { z } from 'zod'
import type { MethodHandler } from './method-context.js'
import { objectParams } from './method-params.js'

const accountReadParamsSchema = z.object({ refreshToken: z.boolean().nullish() })

/**
 * `account/read`: the harness has no account and no login (a model provider reads its key from the environment), and
 * needs no OpenAI login, so a host shows no sign-in: `{account: null, userId: null, requiresOpenaiAuth: false}`.
 */
function accountRead(params: unknown) {
  objectParams(accountReadParamsSchema, params)
  return { account: null, userId: null, requiresOpenaiAuth: false }
}

export const ACCOUNT_METHODS: Readonly<Record<string, MethodHandler>> = {
  'account/read': accountRead,
}
