import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

export { claudeExecutable } from '../../src/claude-executable.js'

/**
 * The complete environment for the Claude Code child (the SDK's `options.env` replaces the child's environment):
 * the fake endpoint, a dummy key, the quiet-traffic switches and a private config dir and HOME under `dir`.
 */
export function isolatedClaudeEnv({ baseUrl, dir }: { baseUrl: string; dir: string }): Record<string, string> {
  const config = join(dir, 'config')
  const home = join(dir, 'home')
  mkdirSync(config, { recursive: true })
  mkdirSync(home, { recursive: true })
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1',
    CLAUDE_CONFIG_DIR: config,
    HOME: home,
  }
}
