import type { Kernel } from '@harness-kernel/kernel'
import { z } from 'zod'
import { RpcError } from '../rpc-errors.js'
import type { MethodContext, MethodHandler } from './method-context.js'
import { noCursor, objectParams } from './method-params.js'

/** The `modelProvider` every thread of this server reports (`thread/start`, `thread/resume`). */
export const MODEL_PROVIDER = 'harness'

const modelListParamsSchema = z.object({
  modelProvider: z.string().nullish(),
  cursor: z.string().nullish(),
  limit: z.number().nullish(),
  includeHidden: z.boolean().nullish(),
})

/** Codex's `Model` (v2), for the one model the harness runs. */
export interface WireModel {
  id: string
  model: string
  upgrade: null
  upgradeInfo: null
  availabilityNux: null
  displayName: string
  description: string
  modelSpecialty: null
  hidden: boolean
  supportedReasoningEfforts: { reasoningEffort: string; description: string }[]
  defaultReasoningEffort: string
  inputModalities: string[]
  supportsPersonality: boolean
  multiAgentVersion: null
  additionalSpeedTiers: string[]
  serviceTiers: { id: string; name: string; description: string }[]
  defaultServiceTier: null
  availableAccessPrograms: null
  isDefault: boolean
}

/**
 * The model the kernel runs, as `thread/start` names it: the `model` service's id when the driver samples the kernel's
 * model, the driver's id when the driver brings its own (Claude Code, Codex pick their model themselves). Undefined
 * when the kernel was composed without a model.
 */
export function runningModel(kernel: Kernel): { id: string; description: string } | undefined {
  const driver = kernel.resolve('driver')
  if (driver.capabilities.model === 'own') {
    return { id: driver.id, description: `The model the ${driver.id} driver brings (the driven program chooses it).` }
  }
  let id: string
  try {
    id = kernel.resolve('model').id
  } catch {
    return undefined
  }
  return { id, description: `The harness's model: the kernel's model service, sampled by the ${driver.id} driver.` }
}

function wireModel(id: string, description: string): WireModel {
  return {
    id,
    model: id,
    upgrade: null,
    upgradeInfo: null,
    availabilityNux: null,
    displayName: id,
    description,
    modelSpecialty: null,
    hidden: false,
    // The kernel's model request has no reasoning-effort setting: none to choose from.
    supportedReasoningEfforts: [],
    defaultReasoningEffort: 'none',
    // Kernel messages are text (an image reaches the model as a text reference).
    inputModalities: ['text'],
    supportsPersonality: false,
    multiAgentVersion: null,
    additionalSpeedTiers: [],
    serviceTiers: [],
    defaultServiceTier: null,
    availableAccessPrograms: null,
    isDefault: true,
  }
}

/** `model/list`: the one model this server runs (one page; no cursor is ever handed out). */
async function modelList(params: unknown, context: MethodContext) {
  const parsed = objectParams(modelListParamsSchema, params)
  if (parsed.modelProvider !== undefined && parsed.modelProvider !== null && parsed.modelProvider !== MODEL_PROVIDER) {
    // Codex's answer for a provider it has no configuration for.
    throw new RpcError(
      -32600,
      `This chat uses model provider “${parsed.modelProvider}”, which is no longer configured. Restore this provider’s configuration to continue.`,
      { type: 'modelProviderNotConfigured', modelProvider: parsed.modelProvider },
    )
  }
  noCursor(parsed.cursor)
  const model = runningModel(await context.kernel())
  return { data: model ? [wireModel(model.id, model.description)] : [], nextCursor: null }
}

export const MODEL_METHODS: Readonly<Record<string, MethodHandler>> = {
  'model/list': modelList,
}
