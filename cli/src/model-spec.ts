import { resolve } from 'node:path'
import type { AnthropicModelOptions } from '@harness-kernel/anthropic'
import { definePlugin, errorMessage, type Plugin } from '@harness-kernel/kernel'
import type { OpenAIModelOptions } from '@harness-kernel/openai'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { CliError } from './cli-error.js'

export interface ModelSpec {
  provider: string
  /** What follows `provider:`: a model name, or a file for `scripted`. */
  ref: string
}

export interface ModelContext {
  cwd: string
  /** Where keys and base URLs are read. */
  env: Record<string, string | undefined>
}

export interface ModelProviderEntry {
  /** How the spec is written, for messages: `scripted:FILE`. */
  usage: string
  /** One line for the list of providers. */
  description: string
  /** The environment variables it reads: `[name, what it is]`. */
  env: readonly (readonly [string, string])[]
  create(ref: string, context: ModelContext): Plugin
}

const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434/v1'
const DEEPSEEK_DEFAULT_URL = 'https://api.deepseek.com'

/** A key the provider cannot run without; its absence is a usage error that says where to put it. */
function requiredKey(env: ModelContext['env'], name: string, spec: string): string {
  const value = env[name]?.trim()
  if (!value) throw new CliError(`${spec} needs an API key: set ${name}`)
  return value
}

/** An endpoint the provider has no default for; its absence is a usage error that says which variable to set. */
function requiredBaseURL(env: ModelContext['env'], name: string, spec: string, example: string): string {
  const value = env[name]?.trim()
  if (!value) throw new CliError(`${spec} needs the server's URL: set ${name} (e.g. ${name}=${example})`)
  return value
}

function optional(env: ModelContext['env'], name: string): string | undefined {
  return env[name]?.trim() || undefined
}

/** Ollama's OpenAI-compatible endpoint: `$OLLAMA_BASE_URL`, else `$OLLAMA_HOST/v1`, else the local default. */
function ollamaBaseURL(env: ModelContext['env']): string {
  const explicit = optional(env, 'OLLAMA_BASE_URL')
  if (explicit) return explicit
  const host = optional(env, 'OLLAMA_HOST')
  if (!host) return OLLAMA_DEFAULT_URL
  const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `http://${host}`
  return `${withScheme.replace(/\/+$/, '')}/v1`
}

/**
 * A provider's plugin that loads its package (and its SDK, hundreds of files) only when the kernel sets it up:
 * a run on another provider, or no run at all (`--help`), never pays for it. Options are checked before, here.
 */
function openaiModel(options: OpenAIModelOptions): Plugin {
  return definePlugin({
    name: 'model-openai',
    async setup(kernel) {
      const { openaiModel: create } = await import('@harness-kernel/openai')
      return create(options).setup(kernel)
    },
  })
}

function anthropicModel(options: AnthropicModelOptions): Plugin {
  return definePlugin({
    name: 'model-anthropic',
    async setup(kernel) {
      const { anthropicModel: create } = await import('@harness-kernel/anthropic')
      return create(options).setup(kernel)
    },
  })
}

/** The providers `--model PROVIDER:REF` can name. Adding a provider is one entry. */
export const modelProviders: Readonly<Record<string, ModelProviderEntry>> = {
  scripted: {
    usage: 'scripted:FILE',
    description: 'replies from a script file: offline, no key',
    env: [],
    create: (ref, { cwd }) => scriptedModel({ script: resolve(cwd, ref) }),
  },
  openai: {
    usage: 'openai:MODEL',
    description: 'OpenAI, Responses API',
    env: [
      ['OPENAI_API_KEY', 'the API key'],
      ['OPENAI_BASE_URL', 'another endpoint'],
    ],
    create: (ref, { env }) =>
      openaiModel({
        model: ref,
        api: 'responses',
        apiKey: requiredKey(env, 'OPENAI_API_KEY', `openai:${ref}`),
        apiKeySource: 'OPENAI_API_KEY',
        ...withBaseURL(optional(env, 'OPENAI_BASE_URL')),
        env,
      }),
  },
  'openai-chat': {
    usage: 'openai-chat:MODEL',
    description: 'any OpenAI-compatible server, Chat Completions API (vLLM, LM Studio, …)',
    env: [
      ['OPENAI_BASE_URL', 'the server, required'],
      ['OPENAI_API_KEY', 'its key, if it needs one'],
    ],
    create: (ref, { env }) =>
      openaiModel({
        model: ref,
        api: 'chat',
        // Without a key, a server on a loopback address gets a placeholder; a remote one is refused with a clear error.
        ...withKey(optional(env, 'OPENAI_API_KEY'), 'OPENAI_API_KEY'),
        baseURL: requiredBaseURL(env, 'OPENAI_BASE_URL', `openai-chat:${ref}`, 'http://127.0.0.1:8000/v1'),
        env,
      }),
  },
  anthropic: {
    usage: 'anthropic:MODEL',
    description: 'Anthropic, Messages API',
    env: [
      ['ANTHROPIC_API_KEY', 'the API key'],
      ['ANTHROPIC_BASE_URL', 'another endpoint'],
    ],
    create: (ref, { env }) =>
      anthropicModel({
        model: ref,
        apiKey: requiredKey(env, 'ANTHROPIC_API_KEY', `anthropic:${ref}`),
        ...withBaseURL(optional(env, 'ANTHROPIC_BASE_URL')),
      }),
  },
  deepseek: {
    usage: 'deepseek:MODEL',
    description: 'DeepSeek, Chat Completions API',
    env: [
      ['DEEPSEEK_API_KEY', 'the API key'],
      ['DEEPSEEK_BASE_URL', `another endpoint, default ${DEEPSEEK_DEFAULT_URL}`],
    ],
    create: (ref, { env }) =>
      openaiModel({
        model: ref,
        api: 'chat',
        apiKey: requiredKey(env, 'DEEPSEEK_API_KEY', `deepseek:${ref}`),
        apiKeySource: 'DEEPSEEK_API_KEY',
        baseURL: optional(env, 'DEEPSEEK_BASE_URL') ?? DEEPSEEK_DEFAULT_URL,
        env,
      }),
  },
  ollama: {
    usage: 'ollama:MODEL',
    description: 'a local Ollama server, OpenAI-compatible Chat Completions; no key',
    env: [
      ['OLLAMA_BASE_URL', `the endpoint, default ${OLLAMA_DEFAULT_URL}`],
      ['OLLAMA_HOST', 'host:port, when OLLAMA_BASE_URL is not set'],
    ],
    create: (ref, { env }) => openaiModel({ model: ref, api: 'chat', apiKey: 'ollama', baseURL: ollamaBaseURL(env), env }),
  },
}

function withBaseURL(baseURL: string | undefined): { baseURL?: string } {
  return baseURL === undefined ? {} : { baseURL }
}

function withKey(apiKey: string | undefined, source: string): { apiKey?: string; apiKeySource?: string } {
  return apiKey === undefined ? {} : { apiKey, apiKeySource: source }
}

/** Every provider, what it reads, and whether that is set, for "no model" and bad-spec messages. */
export function modelOptionsHelp(env: ModelContext['env']): string {
  const width = Math.max(...Object.values(modelProviders).map((entry) => entry.usage.length))
  return Object.values(modelProviders)
    .map((entry) => {
      const vars = entry.env.map(([name, what]) => `${name} (${what}; ${optional(env, name) ? 'set' : 'not set'})`).join(', ')
      return `  ${entry.usage.padEnd(width)}  ${entry.description}${vars ? `. ${vars}` : ''}`
    })
    .join('\n')
}

export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(':')
  const provider = colon === -1 ? '' : spec.slice(0, colon).trim()
  const ref = colon === -1 ? '' : spec.slice(colon + 1).trim()
  if (provider === '' || ref === '') {
    throw new CliError(`invalid model "${spec}": expected PROVIDER:MODEL, one of:\n${modelOptionsHelp({})}`)
  }
  return { provider, ref }
}

/** The model plugin for a spec such as `scripted:script.yaml` or `anthropic:claude-sonnet-4-5`. */
export function createModelPlugin(spec: string, context: { cwd: string; env?: Record<string, string | undefined> }): Plugin {
  const { provider, ref } = parseModelSpec(spec)
  const env = context.env ?? process.env
  const entry = Object.hasOwn(modelProviders, provider) ? modelProviders[provider] : undefined
  if (!entry) throw new CliError(`unknown model provider "${provider}" in "${spec}"; the providers are:\n${modelOptionsHelp(env)}`)
  try {
    return entry.create(ref, { cwd: context.cwd, env })
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`model "${spec}": ${errorMessage(error)}`, { cause: error })
  }
}
