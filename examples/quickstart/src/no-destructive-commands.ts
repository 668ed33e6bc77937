import { definePlugin, type Plugin, STAGE_GUARD } from '@harness-kernel/kernel'

const DESTRUCTIVE = [
  { pattern: /\brm\s+-[a-z]*r[a-z]*f?\b[^;&|]*\s(~|\/|\.\.)/, why: 'rm -r outside the workspace' },
  { pattern: /\bgit\s+push\b[^;&|]*--force\b/, why: 'a force push' },
  { pattern: /\bmkfs(\.\w+)?\b|\bdd\b[^;&|]*\bof=\/dev\//, why: 'writing a device' },
]

/**
 * A native policy plugin: it denies destructive shell commands before they run. Its tap is a guard
 * (STAGE_GUARD), so it runs first, and its veto is final: no later tap can turn it back into allow.
 */
export function noDestructiveCommands(): Plugin {
  return definePlugin({
    name: 'no-destructive-commands',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap({ name: 'deny-destructive', stage: STAGE_GUARD }, (decision, { call }) => {
        if (call.name !== 'shell') return decision
        const command = String((call.input as { command?: unknown }).command ?? '')
        const match = DESTRUCTIVE.find(({ pattern }) => pattern.test(command))
        if (!match) return decision
        return { kind: 'deny', reason: `Denied by policy: ${match.why} is not allowed. Work inside the workspace instead.` }
      })
    },
  })
}
