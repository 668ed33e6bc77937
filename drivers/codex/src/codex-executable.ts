import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const TARGETS: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
}

/**
 * The native `codex` binary that `@openai/codex`'s platform package installed. The driver starts it
 * directly: the package's `codex.js` launcher would put one more process between the driver and Codex.
 */
export function codexExecutable(): string {
  const key = `${process.platform}-${process.arch}`
  const target = TARGETS[key]
  if (!target) throw new Error(`Codex has no native binary for ${key}; pass one as the driver's \`executable\` option`)
  const name = `@openai/codex-${key}`
  const binary = join('vendor', target, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex')
  const require = createRequire(import.meta.url)
  try {
    const path = join(dirname(require.resolve(`${name}/package.json`)), binary)
    if (existsSync(path)) return path
  } catch {}
  throw new Error(
    `Codex is not installed: ${name} does not resolve with ${binary} in it. ` +
      `Run npm install (the platform package is an optional dependency of @openai/codex), or pass the binary as the driver's \`executable\` option.`,
  )
}
