import { definePlugin, type Plugin } from '@harness-kernel/kernel'
import { OpenAIProvider } from './openai-provider.js'
import type { OpenAIModelOptions } from './options.js'

export const PLUGIN_NAME = 'model-openai'

/** The plugin, plus the provider it registers. */
export type OpenAIModelPlugin = Plugin & { readonly model: OpenAIProvider }

/** A provider for direct use (outside a kernel, or wrapped by another provider). */
export function createOpenAIProvider(options: OpenAIModelOptions): OpenAIProvider {
  return new OpenAIProvider(options)
}

/**
 * OpenAI, or any server speaking its API (DeepSeek, Ollama, vLLM, …), as the kernel's `model` service:
 * `openaiModel({ model: 'gpt-5.1' })`, `openaiModel({ model: 'qwen3:8b', api: 'chat', baseURL: 'http://127.0.0.1:11434/v1' })`.
 */
export function openaiModel(options: OpenAIModelOptions): OpenAIModelPlugin {
  const model = createOpenAIProvider(options)
  const plugin = definePlugin({
    name: PLUGIN_NAME,
    setup(kernel) {
      kernel.provide('model', model, { lifetime: 'kernel' })
    },
  })
  return Object.freeze({ ...plugin, model })
}
