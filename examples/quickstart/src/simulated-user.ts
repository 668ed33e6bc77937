import { definePlugin, type Plugin, STAGE_OBSERVE, type SteerOutcome } from '@harness-kernel/kernel'

/**
 * Stands in for a person at the keyboard: when the first shell command succeeds, it types a
 * follow-up with `session.steer()`. The kernel claims it at the next sampling boundary.
 */
export function simulatedUser(text: string, onReceipt: (receipt: Promise<SteerOutcome>) => void): Plugin {
  let steered = false
  return definePlugin({
    name: 'simulated-user',
    setup(kernel) {
      kernel.hooks.toolPostExecute.tap({ name: 'steer-once', stage: STAGE_OBSERVE }, (decision, { session, call, result }) => {
        if (steered || call.name !== 'shell' || result.isError) return decision
        steered = true
        onReceipt(session.steer(text))
        return decision
      })
    },
  })
}
