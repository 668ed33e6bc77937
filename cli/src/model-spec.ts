import { resolve } from 'node:path'
import { errorMessage, type Plugin } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { CliError } from './cli-error.js'

export interface ModelSpec {
  provider: string
  /** What follows `provider:`: a model name, or a file for `scripted`. */
  ref: string
}

export interface ModelProviderEntry {
  /** How the spec is written, for messages: `scripted:FILE`. */
  usage: string
  create(ref: string, context: { cwd: string }): Plugin
}

/** The providers `--model PROVIDER:REF` can name. Adding a provider is one entry. */
export const modelProviders: Readonly<Record<string, ModelProviderEntry>> = {
  scripted: {
    usage: 'scripted:FILE',
    create: (ref, { cwd }) => scriptedModel({ script: resolve(cwd, ref) }),
  },
}

export const MODEL_USAGE = '--model scripted:FILE|openai:MODEL|anthropic:MODEL'

export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(':')
  const provider = colon === -1 ? '' : spec.slice(0, colon).trim()
  const ref = colon === -1 ? '' : spec.slice(colon + 1).trim()
  if (provider === '' || ref === '') {
    throw new CliError(
      `invalid model "${spec}": expected PROVIDER:MODEL, e.g. ${Object.values(modelProviders)[0]?.usage ?? 'scripted:FILE'}`,
    )
  }
  return { provider, ref }
}

/** The model plugin for a spec such as `scripted:script.yaml`; relative files resolve against `cwd`. */
export function createModelPlugin(spec: string, context: { cwd: string }): Plugin {
  const { provider, ref } = parseModelSpec(spec)
  const entry = Object.hasOwn(modelProviders, provider) ? modelProviders[provider] : undefined
  if (!entry) {
    throw new CliError(`model provider "${provider}" is not available in this build; available: ${Object.keys(modelProviders).join(', ')}`)
  }
  try {
    return entry.create(ref, context)
  } catch (error) {
    throw new CliError(`model "${spec}": ${errorMessage(error)}`, { cause: error })
  }
}
