import type { OpenAIModelOptions } from './options.js'

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'

/** Where requests go and how to name that place in messages a person reads. */
export interface Endpoint {
  baseURL: string
  /** `OpenAI API` for api.openai.com, else the server's host (`api.deepseek.com`, `127.0.0.1:11434`). */
  label: string
  isOpenAI: boolean
  /** The key to send, or undefined when none is configured (a request would fail; the provider says so first). */
  apiKey: string | undefined
  /** Where the key came from, for the 401 hint. */
  keySource: 'option' | 'env' | 'placeholder' | 'none'
}

/** Servers on a loopback address (Ollama, a local vLLM) usually want no key; this one is sent instead. */
export const LOCAL_API_KEY = 'local-no-key'

export function resolveEndpoint(options: OpenAIModelOptions, env: Record<string, string | undefined>): Endpoint {
  const baseURL = (options.baseURL?.trim() || readEnv(env, 'OPENAI_BASE_URL') || OPENAI_BASE_URL).replace(/\/+$/, '')
  const url = parseURL(baseURL)
  const isOpenAI = url?.hostname === 'api.openai.com'
  const label = isOpenAI ? 'OpenAI API' : (url?.host ?? baseURL)
  const envKey = readEnv(env, 'OPENAI_API_KEY')
  if (options.apiKey !== undefined) return { baseURL, label, isOpenAI, apiKey: options.apiKey, keySource: 'option' }
  if (envKey !== undefined) return { baseURL, label, isOpenAI, apiKey: envKey, keySource: 'env' }
  if (url && isLoopback(url.hostname)) return { baseURL, label, isOpenAI, apiKey: LOCAL_API_KEY, keySource: 'placeholder' }
  return { baseURL, label, isOpenAI, apiKey: undefined, keySource: 'none' }
}

export function readEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  return env[name]?.trim() || undefined
}

function parseURL(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}
