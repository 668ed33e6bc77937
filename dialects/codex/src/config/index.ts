export { resolveCodexHome } from './codex-home.js'
export { type CodexLoadOptions, loadCodexHooks } from './load-codex-hooks.js'
export { type ProjectLayer, type ProjectTrust, projectTrust } from './project-layers.js'
export { SESSION_FLAGS_CONFIG_PATH } from './session-flags.js'
