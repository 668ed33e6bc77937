import { definePlugin, type Plugin, type SteerReceipt } from '@harness-kernel/kernel'

/**
 * Stands in for a person typing while the agent works: when the first kernel tool call of the session is allowed (its
 * `tool/call` event), it calls `session.steer(text)`. The command is running then, parked inside Claude Code's MCP call;
 * the driver claims the input at that tool boundary and hands it to Claude Code with the call's result.
 */
export function steerWhileParked(text: string, onSteer: (receipt: SteerReceipt) => void): Plugin {
  let steered = false
  return definePlugin({
    name: 'steer-while-parked',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('steer-once', ({ session, event }) => {
        if (steered || event.type !== 'tool/call' || event.decision !== 'allow') return
        steered = true
        onSteer(session.steer(text))
      })
    },
  })
}
