import { checkShellEnvironmentPolicy, definePlugin, type KernelApi, type Plugin, type ShellEnvironmentPolicy } from '@harness-kernel/kernel'
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
      return undefined
    },
  })
}
