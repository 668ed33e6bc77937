import { definePlugin, type Plugin, STAGE_GUARD } from '@harness-kernel/kernel'

/** Denied whatever else the command does: a force push rewrites history others may have pulled. */
const FORCE_PUSH = /\bgit\s+push\b[^;&|]*\s(--force\b|--force-with-lease\b|-f\b)/

/**
 * A native policy plugin, the same under every driver: it logs each kernel tool call at `tools/pre-execute` and denies
 * one dangerous command, a force push. Under the Codex driver the point fires while Codex waits for the answer to its
 * dynamic tool call (`item/tool/call`), before the tool runs; a denial goes back to Codex as `success: false` with the
 * reason as the output its model reads.
 */
export function shellGuard(log: (line: string) => void): Plugin {
  return definePlugin({
    name: 'shell-guard',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap({ name: 'log-and-deny', stage: STAGE_GUARD }, (decision, { call, step }) => {
        const command = String((call.input as { command?: unknown }).command ?? '')
        if (call.name === 'shell' && FORCE_PUSH.test(command)) {
          log(`  ⚙ tools/pre-execute (shell-guard) step ${step}: ${call.name} ${JSON.stringify(call.input)} → deny`)
          return { kind: 'deny', reason: 'Denied by shell-guard: force pushes are not allowed. Push to a new branch instead.' }
        }
        log(`  ⚙ tools/pre-execute (shell-guard) step ${step}: ${call.name} ${JSON.stringify(call.input)} → ${decision.kind}`)
        return decision
      })
    },
  })
}
