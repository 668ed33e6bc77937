import { resolve } from 'node:path'
import {
  checkShellEnvironmentPolicy,
  definePlugin,
  denyWithoutApprover,
  environmentPolicyRunner,
  type KernelApi,
  type Plugin,
  type ServiceKey,
} from '@harness-kernel/kernel'
import { defaultClaudeConfigDir, loadClaudeCodeHooks } from '../config/index.js'
import {
  DEFAULT_ENV_FILE_DIR,
  DEFAULT_HOOK_OUTPUT_DIR,
  DEFAULT_TIMEOUT_SEC,
  sessionEndBudgetMs,
  stopHookBlockCap,
} from '../handler-defaults.js'
import { checkPermissionMode } from '../permissions/index.js'
import { PLUGIN_NAME } from '../render/hook-text.js'
import type { ClaudeRenderer } from '../render/renderer.js'
import { asMcpToolCaller, MCP_CLIENTS_SERVICE, type McpToolCaller } from '../run/index.js'
import { openTranscript, tapTranscript } from '../transcript/session-transcript.js'
import { tapInterruptEvent } from './interrupt-tap.js'
import { runCompactSessionStart, runSessionStart, tapLifecycleEvents } from './lifecycle-taps.js'
import { managedPolicyRefusal, tapManagedPolicyRefusal } from './managed-policy-refusal.js'
import { tapObserverEvents } from './observer-taps.js'
import type { ClaudeCodeHooksOptions } from './options.js'
import { tapPermissionsAfterHooks, tapPermissionsBeforeHooks } from './permission-taps.js'
import { tapPromptEvents } from './prompt-taps.js'
import { chooseRenderer, tapRendering } from './render-tap.js'
import { SessionPermissions } from './session-permissions.js'
import { ClaudeSessionState } from './session-state.js'
import { tapStopEvents } from './stop-taps.js'
import { stateOf, type TapContext } from './tap-context.js'
import { tapToolEvents } from './tool-taps.js'

/**
 * Runs the user's Claude Code hooks (user, project, local, managed, `--settings` and plugin settings) on the kernel's
 * interception points, with Claude Code's payloads, environment, concurrency, output semantics and model-visible texts.
 */
export function claudeCodeHooks(options: ClaudeCodeHooksOptions = {}): Plugin {
  const env = options.env ?? process.env
  const { hookEnvironment } = options
  if (hookEnvironment !== undefined) checkShellEnvironmentPolicy(hookEnvironment, 'claudeCodeHooks: hookEnvironment')
  const claudeTranscript = options.transcript === 'claude-code'
  const flagMode =
    options.permissionMode === undefined ? undefined : checkPermissionMode(options.permissionMode, 'claudeCodeHooks: permissionMode')
  return definePlugin({
    name: PLUGIN_NAME,
    setup(kernel) {
      // A driver that brings its own model (Claude Code) leaves the kernel without one: prompt handlers then say so.
      const model = () => (kernel.resolve('driver').capabilities.model === 'kernel' ? kernel.resolve('model') : undefined)
      const ctx: TapContext = {
        runner:
          hookEnvironment === undefined
            ? (session) => session.processRunner
            : (session) => environmentPolicyRunner(session.processRunner, hookEnvironment, 'claudeCodeHooks: hookEnvironment'),
        model,
        mcpClients: () => mcpClientsOf(kernel),
        effort: options.effort,
        defaultTimeoutSec: options.defaultTimeoutSec ?? DEFAULT_TIMEOUT_SEC,
        entrypoint: options.entrypoint ?? 'harness-kernel',
        envFileDir: options.envFileDir ?? DEFAULT_ENV_FILE_DIR,
        tools: kernel.resolve('tools'),
        fixes: options.fixes ?? {},
        stopHookBlockCap: stopHookBlockCap(options.stopHookBlockCap, env),
        sessionEndTimeoutMs: sessionEndBudgetMs(options.sessionEndTimeoutMs, env),
        hookAsk: () => options.hookAsk ?? (kernel.resolve('approvals') === denyWithoutApprover ? 'deny' : 'approvals'),
        noApprover: () => kernel.resolve('approvals') === denyWithoutApprover,
        states: new WeakMap(),
        hookOutputDir: options.hookOutputDir ?? DEFAULT_HOOK_OUTPUT_DIR,
        modelName: () => options.model ?? modelId(kernel),
      }
      let renderer: ClaudeRenderer | undefined
      const currentRenderer = () => {
        renderer ??= chooseRenderer(options.rendering, model()?.capabilities?.systemMessagesInConversation === true)
        return renderer
      }

      kernel.hooks.sessionStart.tapPromise(PLUGIN_NAME, async (payload) => {
        const { session } = payload
        // After a compaction the session goes on (a subagent's with its main session's state): same settings, prompt id
        // and transcript.
        if (payload.source === 'compact' && stateOf(ctx, session) !== undefined) return runCompactSessionStart(ctx, payload)
        const loaded = loadClaudeCodeHooks({
          projectDir: options.projectDir ?? session.cwd,
          env,
          ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
          ...(options.managedSettingsPath === undefined ? {} : { managedSettingsPath: options.managedSettingsPath }),
          ...(options.settings === undefined ? {} : { settings: options.settings }),
          ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
          ...(options.settingSources === undefined ? {} : { settingSources: options.settingSources }),
          ...(options.widenManagedAllowLists === undefined ? {} : { widenManagedAllowLists: options.widenManagedAllowLists }),
        })
        for (const warning of loaded.warnings) session.notice('warning', warning, PLUGIN_NAME)
        const warn = (text: string) => session.notice('warning', text, PLUGIN_NAME)
        const permissions = new SessionPermissions({
          settings: loaded.permissions,
          sandbox: loaded.sandbox,
          flagMode,
          addDirs: (options.additionalDirectories ?? []).map((dir) => resolve(session.cwd, dir)),
          cwd: session.cwd,
          projectDir: loaded.projectDir,
          warn,
        })
        const state = new ClaudeSessionState(loaded, permissions, warn)
        ctx.states.set(session, state)
        if ((options.managedPolicyFailure ?? 'refuse') === 'refuse') {
          state.refusal = managedPolicyRefusal(loaded)
          if (state.refusal !== undefined) session.notice('error', state.refusal, PLUGIN_NAME)
        }
        if (claudeTranscript) {
          const place = { transcriptDir: options.transcriptDir, configDir: options.configDir ?? defaultClaudeConfigDir(env) }
          state.transcript = openTranscript(ctx, session, state, place, payload.source)
        }
        await runSessionStart(ctx, payload)
      })

      // First on `session/event`: a line is on disk before an observer hook (MessageDisplay) starts.
      if (claudeTranscript) tapTranscript(kernel, ctx)
      tapManagedPolicyRefusal(kernel, ctx)
      tapPromptEvents(kernel, ctx)
      tapPermissionsBeforeHooks(kernel, ctx)
      tapToolEvents(kernel, ctx)
      tapPermissionsAfterHooks(kernel, ctx)
      tapStopEvents(kernel, ctx)
      tapLifecycleEvents(kernel, ctx)
      tapObserverEvents(kernel, ctx)
      tapInterruptEvent(kernel, ctx)
      tapRendering(kernel, currentRenderer)
    },
  })
}

/** The kernel model provider's id; a driver that brings its own model (Claude Code) has none, so the driver's id stands in. */
function modelId(kernel: KernelApi): string {
  const driver = kernel.resolve('driver')
  return driver.capabilities.model === 'kernel' ? kernel.resolve('model').id : driver.id
}

/**
 * The `mcpClients` service (`@harness-kernel/mcp` provides it), looked up when a handler runs so the plugins' order does
 * not matter; undefined when no plugin provides it (mcp_tool handlers then fail: `MCP server '<name>' not connected`).
 */
function mcpClientsOf(kernel: KernelApi): McpToolCaller | undefined {
  try {
    return asMcpToolCaller(kernel.resolve(MCP_CLIENTS_SERVICE as ServiceKey))
  } catch {
    return undefined
  }
}
