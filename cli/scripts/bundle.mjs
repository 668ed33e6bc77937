#!/usr/bin/env node
// Bundles the built CLI (dist/) into bundle/ for the published package: one file and a few lazily loaded
// chunks start much faster than the ~330 ES modules of dist/ (Node 20 has no compile cache). Programs and
// SDKs loaded only for some runs stay outside. `node scripts/bundle.mjs [outdir]`.
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const cli = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = resolve(process.argv[2] ?? join(cli, 'bundle'))
const { build } = await import(createRequire(join(cli, 'package.json')).resolve('esbuild'))
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: [join(cli, 'dist', 'bin.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  minifyWhitespace: true,
  minifySyntax: true,
  // CommonJS dependencies inside an ES module bundle still call require() for Node's builtins.
  banner: { js: "import { createRequire as __harnessRequire } from 'node:module'; const require = __harnessRequire(import.meta.url);" },
  // The Codex driver stays a package of its own: it finds the Codex binary next to itself, and when it is not installed
  // `--driver codex` says how to install it.
  external: [
    '@anthropic-ai/claude-agent-sdk',
    '@anthropic-ai/claude-agent-sdk-*',
    '@modelcontextprotocol/sdk',
    '@harness-kernel/driver-codex',
    'tsx',
    'esbuild',
  ],
})
