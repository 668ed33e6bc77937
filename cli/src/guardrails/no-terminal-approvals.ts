import { type ApprovalPolicy, definePlugin, type Plugin, STAGE_GUARD } from '@harness-kernel/kernel'
import type { CliIo } from '../io.js'

/**
 * With no terminal nobody can answer an approval request, so sessions run as `--ask-for-approval never` (the sandbox
 * alone decides; escalations are refused and the model is told), said once on stderr. `untrusted` stays as it is: what
 * it would ask about is refused (the kernel's approver without a host denies), never run unasked.
 */
export function noTerminalApprovals(io: CliIo): Plugin {
  let said = false
  return definePlugin({
    name: 'no-terminal-approvals',
    setup(kernel) {
      kernel.hooks.sessionStart.tap({ name: 'no-terminal-approvals', stage: STAGE_GUARD }, ({ session }) => {
        const approval: ApprovalPolicy = session.guardrails.policy.approval
        if (approval === 'never') return
        if (approval !== 'untrusted') session.guardrails.setPolicy({ approval: 'never' })
        if (said) return
        said = true
        io.stderr.write(
          approval === 'untrusted'
            ? 'harness: no terminal to ask for approval on: commands that need approval under `untrusted` are refused\n'
            : 'harness: no terminal to ask for approval on: acting as --ask-for-approval never (the sandbox decides; escalations are refused)\n',
        )
      })
    },
  })
}
