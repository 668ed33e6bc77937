import { JsonFileTrustStore, type TrustStore } from '@harness-kernel/hook-protocol'
import { checkShellEnvironmentPolicy, definePlugin, environmentPolicyRunner, type Plugin } from '@harness-kernel/kernel'
import { resolveCodexHome } from '../config/codex-home.js'
import { loadCodexHooks } from '../config/load-codex-hooks.js'
import { defaultHarnessTrustPath, projectTrustCommand, untrustedProjectNotice } from '../trust/index.js'
import { CodexSessionState } from './codex-session.js'
import { tapLifecycleEvents } from './lifecycle-taps.js'
import { modelRequestGap, tapModelRequestEvents } from './model-request-taps.js'
import type { CodexHooksOptions } from './options.js'
import { tapPromptEvents } from './prompt-taps.js'
import { PLUGIN_NAME } from './run-event.js'
import { tapStopEvents } from './stop-taps.js'
import { stateOf, type TapContext } from './tap-context.js'
import { tapToolContextOrder } from './tool-context-order.js'
import { tapToolEvents } from './tool-taps.js'

/**
 * Runs the user's Codex hooks (hooks.json and `[hooks]` in config.toml, every layer Codex reads) on the kernel's
 * interception points, with Codex's payloads, concurrency, output semantics and model-visible texts.
 */
export function codexHooks(options: CodexHooksOptions = {}): Plugin {
  const { hookEnvironment } = options
  if (hookEnvironment !== undefined) checkShellEnvironmentPolicy(hookEnvironment, 'codexHooks: hookEnvironment')
  return definePlugin({
    name: PLUGIN_NAME,
    setup(kernel) {
      const trustStore: TrustStore | undefined =
        options.trustStore === false
          ? undefined
          : (options.trustStore ?? new JsonFileTrustStore(defaultHarnessTrustPath(process.env), 'codex'))
      const bypassTrust = options.trust === 'all'
      const ctx: TapContext = {
        runner:
          hookEnvironment === undefined
            ? (session) => session.processRunner
            : (session) => environmentPolicyRunner(session.processRunner, hookEnvironment, 'codexHooks: hookEnvironment'),
        shell: options.shell ?? '/bin/bash',
        permissionMode: options.permissionMode,
        tools: kernel.resolve('tools'),
        fixes: options.fixes ?? {},
        tmpDir: options.tmpDir,
        states: new WeakMap(),
      }

      kernel.hooks.sessionStart.tapPromise(PLUGIN_NAME, async ({ session, source }) => {
        // After a compaction the session goes on with the hooks it has (lifecycle-taps.ts runs SessionStart `compact`).
        if (source === 'compact' && stateOf(ctx, session) !== undefined) return
        const loaded = loadCodexHooks({
          cwd: session.cwd,
          ...(options.codexHome === undefined ? {} : { codexHome: options.codexHome }),
          ...(options.sessionFlags === undefined ? {} : { sessionFlags: options.sessionFlags }),
          ...(options.managedRequirementsPath === undefined ? {} : { managedRequirementsPath: options.managedRequirementsPath }),
          ...(options.files === undefined ? {} : { explicitFiles: options.files }),
          ...(trustStore === undefined ? {} : { trustStore }),
        })
        for (const warning of loaded.warnings) session.notice('warning', warning, PLUGIN_NAME)
        if (loaded.untrustedProject) {
          // The command as typed where the session runs: --cwd and --codex-home only when they differ from the defaults.
          const codexHome = options.codexHome === undefined ? undefined : resolveCodexHome(options.codexHome, process.env)
          const command = projectTrustCommand({
            cwd: session.cwd === process.cwd() ? undefined : session.cwd,
            codexHome: codexHome === undefined || codexHome === resolveCodexHome(undefined, process.env) ? undefined : codexHome,
          })
          session.notice('warning', untrustedProjectNotice(loaded.untrustedProject, command), PLUGIN_NAME)
        }
        if (bypassTrust) {
          session.notice('warning', 'Codex hook trust is bypassed (trust: "all"): every enabled hook runs, trusted or not', PLUGIN_NAME)
        } else {
          const skipped = loaded.handlers.filter(
            (handler) => handler.enabled && (handler.trustStatus === 'untrusted' || handler.trustStatus === 'modified'),
          )
          for (const handler of skipped) {
            session.notice(
              'warning',
              `Codex hook ${handler.key} (${handler.event}: ${handler.command}) is ${handler.trustStatus} and will not run; trust it with \`harness hooks trust ${handler.key}\``,
              PLUGIN_NAME,
            )
          }
        }
        // A driver that brings its own model (Claude Code) has no kernel model to name: the driver's id stands in.
        const driver = kernel.resolve('driver')
        const model = options.model ?? (driver.capabilities.model === 'kernel' ? kernel.resolve('model').id : driver.id)
        const gap = modelRequestGap(loaded.handlers, driver)
        if (gap !== undefined) session.notice('warning', gap, PLUGIN_NAME)
        ctx.states.set(session, new CodexSessionState(loaded, bypassTrust, model, source))
      })

      tapPromptEvents(kernel, ctx)
      tapToolEvents(kernel, ctx)
      tapStopEvents(kernel, ctx)
      tapLifecycleEvents(kernel, ctx)
      tapModelRequestEvents(kernel, ctx)
      if (options.toolContextOrder !== 'kernel') tapToolContextOrder(kernel)
    },
  })
}
