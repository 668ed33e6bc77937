import { definePlugin, type Plugin } from '@harness-kernel/kernel'

/**
 * Stands in for a person asked to approve: the kernel's guardrails ask before a dangerous command (a forced `rm`,
 * under Codex's default `on-request` policy); this approver shows the question and says yes, once for each.
 */
export function simulatedApprover(print: (line: string) => void): Plugin {
  return definePlugin({
    name: 'simulated-approver',
    setup(kernel) {
      kernel.provide('approvals', {
        async request({ action, call, sandboxed }) {
          const what = action?.kind === 'command' ? action.command : JSON.stringify(call.input)
          print(
            `  ? approval asked for ${call.name}: ${what} (${sandboxed === false ? 'outside' : 'inside'} the sandbox): the user says yes`,
          )
          return { kind: 'allow' }
        },
      })
    },
  })
}
