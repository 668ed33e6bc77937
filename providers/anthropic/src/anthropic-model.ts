import { definePlugin, type ModelProvider, type Plugin } from '@harness-kernel/kernel'
import type { AnthropicModelOptions } from './anthropic-options.js'
import { AnthropicProvider } from './anthropic-provider.js'

/** The plugin, plus the provider it registers. */
export type AnthropicModelPlugin = Plugin & { readonly model: AnthropicProvider }

/** An Anthropic Messages API model as a `ModelProvider` (for `kernel.provide('model', …)` or direct use). */
export function createAnthropicProvider(options: AnthropicModelOptions): ModelProvider {
  return new AnthropicProvider(options)
}

/** A plugin named `model-anthropic` that provides an Anthropic model as the kernel-lifetime `model` service. */
export function anthropicModel(options: AnthropicModelOptions): AnthropicModelPlugin {
  const model = new AnthropicProvider(options)
  const plugin = definePlugin({
    name: 'model-anthropic',
    setup(kernel) {
      kernel.provide('model', model, { lifetime: 'kernel' })
    },
  })
  return Object.freeze({ ...plugin, model })
}
