import { definePlugin, type Plugin } from '@harness-kernel/kernel'
import { type LiveSteeringInput, type OmpSteeringOptions, OmpSteeringSource } from './omp-steering-source.js'

/** The plugin, plus its source so the host can `rebind()` each provider call and `endCall()`. */
export type OmpSteeringPlugin = Plugin & { readonly source: OmpSteeringSource }

/**
 * Provides OMP's LiveSteering as the sessions' `steering` service. Pass the current call's
 * `LiveSteering`, or a getter that returns it (a new object per provider call rebinds the adapter).
 * One plugin instance serves one OMP agent: every session of the kernel shares its source.
 */
export function ompSteering(liveSteering?: LiveSteeringInput, options: OmpSteeringOptions = {}): OmpSteeringPlugin {
  const source = new OmpSteeringSource(liveSteering, options)
  const plugin = definePlugin({
    name: 'omp-steering',
    setup(kernel) {
      kernel.provide('steering', () => source)
    },
  })
  return Object.freeze({ ...plugin, source })
}
