// The shell's environment policy lives in the kernel (hook commands can use it too); re-exported where it began.
export {
  CORE_ENV_VARS,
  checkShellEnvironmentPolicy,
  DEFAULT_ENV_EXCLUDES,
  envNamePattern,
  type ShellEnvironmentInherit,
  type ShellEnvironmentPolicy,
  shellEnvironment,
  shellEnvironmentInherits,
} from '@harness-kernel/kernel'
export * from './edit-file-tool.js'
export * from './read-file-tool.js'
export * from './shell-tool.js'
export * from './tools-plugin.js'
export * from './write-file-tool.js'
