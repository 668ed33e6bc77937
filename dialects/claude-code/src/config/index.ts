export { defaultClaudeConfigDir } from './claude-config-dir.js'
export { urlMatchesPattern } from './http-hook-policy.js'
export { type LoadClaudeCodeHooksOptions, loadClaudeCodeHooks } from './load-claude-code-hooks.js'
export {
  type ClaudeCodeMcpScope,
  type ClaudeCodeMcpServer,
  type LoadClaudeCodeMcpServersOptions,
  loadClaudeCodeMcpServers,
} from './load-claude-code-mcp-servers.js'
export { defaultManagedSettingsPath, managedDropInPaths } from './managed-settings-path.js'
export { pluginDataDir } from './plugin-hooks-file.js'
export type { SettingSourceName } from './settings-sources.js'
