import { definePlugin, type Plugin } from '@harness-kernel/kernel'
import { type ScriptedModelOptions, ScriptedModelProvider } from './scripted-model-provider.js'

/** The plugin, plus the provider it registers so callers can inspect what the model saw. */
export type ScriptedModelPlugin = Plugin & { readonly model: ScriptedModelProvider }

/** A plugin that provides a `ScriptedModelProvider` as the kernel-lifetime `model` service. */
export function scriptedModel(options: ScriptedModelOptions): ScriptedModelPlugin {
  const model = new ScriptedModelProvider(options)
  const plugin = definePlugin({
    name: 'scripted-model',
    setup(kernel) {
      kernel.provide('model', model, { lifetime: 'kernel' })
    },
  })
  return Object.freeze({ ...plugin, model })
}
