import { ACCOUNT_METHODS } from './account-methods.js'
import { COMMAND_EXEC_METHODS } from './command-exec-methods.js'
import { CONFIG_METHODS } from './config-methods.js'
import { FUZZY_FILE_SEARCH_METHODS } from './fuzzy-file-search-methods.js'
import { MCP_STATUS_METHODS } from './mcp-status-methods.js'
import type { MethodHandler } from './method-context.js'
import { MODEL_METHODS } from './model-methods.js'
import { SKILLS_METHODS } from './skills-methods.js'

/** Models, config, skills, MCP status, commands, file search, account. */
export const WORKSPACE_METHODS: Readonly<Record<string, MethodHandler>> = {
  ...MODEL_METHODS,
  ...CONFIG_METHODS,
  ...SKILLS_METHODS,
  ...MCP_STATUS_METHODS,
  ...COMMAND_EXEC_METHODS,
  ...FUZZY_FILE_SEARCH_METHODS,
  ...ACCOUNT_METHODS,
}
