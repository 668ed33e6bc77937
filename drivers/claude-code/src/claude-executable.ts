import { existsSync } from 'node:fs'
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

/** The native Claude Code binary that the Agent SDK's platform package installed; throws naming the packages tried. */
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
    `Claude Code is not installed: none of ${candidates.join(', ')} resolves with a '${binary}' in it. ` +
      `Run npm install (the platform package is an optional dependency of ${SDK}), or pass the binary as the driver's \`executable\` option.`,
  )
}
