import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const SDK = '@anthropic-ai/claude-agent-sdk'

function isMusl(): boolean {
  if (process.platform !== 'linux') return false
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  return report?.header?.glibcVersionRuntime === undefined
}

/** The platform packages that may carry the native binary here, the preferred one first (as the SDK picks them). */
function platformPackages(): string[] {
  const { platform, arch } = process
  if (platform === 'linux') {
    const glibc = `${SDK}-linux-${arch}`
    const musl = `${SDK}-linux-${arch}-musl`
    return isMusl() ? [musl, glibc] : [glibc, musl]
  }
  return [`${SDK}-${platform}-${arch}`]
}

/** The path of the native Claude Code binary from the installed platform package of the Agent SDK. */
export function claudeExecutable(): string {
  const require = createRequire(import.meta.url)
  const binary = process.platform === 'win32' ? 'claude.exe' : 'claude'
  const candidates = platformPackages()
  for (const name of candidates) {
    let manifest: string
    try {
      manifest = require.resolve(`${name}/package.json`)
    } catch {
      continue
    }
    const path = join(dirname(manifest), binary)
    if (existsSync(path)) return path
  }
  throw new Error(
    `The native Claude Code binary is not installed: none of ${candidates.join(', ')} resolves with a '${binary}' in it. ` +
      `Run npm install (the platform package is an optional dependency of ${SDK}).`,
  )
}

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
