import {
  type ApprovalPolicy,
  type CommandRule,
  checkShellEnvironmentPolicy,
  definePlugin,
  guardrails,
  type KernelApi,
  type Plugin,
  type SandboxMode,
  type SandboxPolicy,
  type ShellEnvironmentPolicy,
} from '@harness-kernel/kernel'
import { editFileTool } from './edit-file-tool.js'
import { readFileTool } from './read-file-tool.js'
import { type ShellToolOptions, shellTool } from './shell-tool.js'
import { writeFileTool } from './write-file-tool.js'

export const builtinToolNames = ['shell', 'read_file', 'write_file', 'edit_file'] as const
export type BuiltinToolName = (typeof builtinToolNames)[number]

export interface ToolsOptions {
  /** Which tools to register. Default: all of them. */
  include?: readonly BuiltinToolName[]
  shell?: ShellToolOptions
  /**
   * Which of the kernel's environment variables the `shell` tool's commands see: Codex's `shell_environment_policy`
   * (`inherit`, `ignoreDefaultExcludes`, `exclude`, `set`, `includeOnly`). Default: all but names holding KEY, SECRET
   * or TOKEN. Takes the place of `shell.environment`.
   */
  shellEnvironment?: ShellEnvironmentPolicy
  /** Most bytes `read_file` returns per call. Default 128 KiB. */
  maxReadBytes?: number
  /**
   * The sandbox every command and file write of these tools runs in: a Codex mode name or a whole policy. Default
   * the kernel's: `workspace-write`, network off. Given with `approvals` or `rules`, this plugin provides the
   * `guardrails` service (as `guardrails()` does).
   */
  sandbox?: SandboxMode | SandboxPolicy
  /** Codex's approval policy. Default the kernel's: `on-request`. */
  approvals?: ApprovalPolicy
  /** Codex exec-policy rules (`prefix_rule`). */
  rules?: readonly CommandRule[]
}

/** The built-in tools as a plugin named `tools`. */
export function tools(options: ToolsOptions = {}): Plugin {
  const include = options.include ?? builtinToolNames
  const unknown = include.filter((name) => !(builtinToolNames as readonly string[]).includes(name))
  if (unknown.length > 0) {
    throw new TypeError(
      `tools: unknown tool ${unknown.map((name) => `"${name}"`).join(', ')} in include; known: ${builtinToolNames.join(', ')}`,
    )
  }
  if (options.shellEnvironment !== undefined) checkShellEnvironmentPolicy(options.shellEnvironment, 'tools: shellEnvironment')
  const shellOptions: ShellToolOptions | undefined =
    options.shellEnvironment === undefined ? options.shell : { ...options.shell, environment: options.shellEnvironment }
  const guarded =
    options.sandbox !== undefined || options.approvals !== undefined || options.rules !== undefined
      ? guardrails({
          ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
          ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
          ...(options.rules === undefined ? {} : { rules: options.rules }),
        })
      : undefined
  const register: Record<BuiltinToolName, (kernel: KernelApi) => void> = {
    shell: (kernel) => kernel.registerTool(shellTool(shellOptions)),
    read_file: (kernel) => kernel.registerTool(readFileTool({ maxReadBytes: options.maxReadBytes })),
    write_file: (kernel) => kernel.registerTool(writeFileTool()),
    edit_file: (kernel) => kernel.registerTool(editFileTool()),
  }
  return definePlugin({
    name: 'tools',
    setup(kernel) {
      for (const name of builtinToolNames) if (include.includes(name)) register[name](kernel)
      return guarded?.setup(kernel)
    },
  })
}
