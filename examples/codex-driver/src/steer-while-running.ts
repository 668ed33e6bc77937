import { definePlugin, type Plugin, type SteerReceipt } from '@harness-kernel/kernel'

/**
 * Stands in for a person typing while the agent works: when the first kernel tool call of the session is allowed (its
 * `tool/call` event), it calls `session.steer(text)`. The command is running then, and Codex waits for the answer to
 * its dynamic tool call; the driver claims the input at that tool boundary and sends it to Codex as `turn/steer`, which
 * Codex takes into the running turn: its next model request carries the tool's output, then the steer.
 */
export function steerWhileRunning(text: string, onSteer: (receipt: SteerReceipt) => void): Plugin {
  let steered = false
  return definePlugin({
    name: 'steer-while-running',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('steer-once', ({ session, event }) => {
        if (steered || event.type !== 'tool/call' || event.decision !== 'allow') return
        steered = true
        onSteer(session.steer(text))
      })
    },
  })
}
