#!/usr/bin/env node
// Regenerates the JSON Schema fixture the tests check the server's messages against: the installed Codex (npm
// `@openai/codex`, its native binary) writes its App Server protocol schema with
// `codex app-server generate-json-schema --out DIR`, run with HOME and CODEX_HOME in a temporary directory so no user
// config is read. The bundle that holds every type is kept in test/fixtures/codex-schema-<version>/.
// Usage: node transports/app-server/scripts/generate-codex-schema.mjs
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUNDLE = 'codex_app_server_protocol.schemas.json'
const TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
}

/** The native binary `@openai/codex`'s platform package installed (as drivers/codex/src/codex-executable.ts finds it). */
function codexExecutable() {
  const key = `${process.platform}-${process.arch}`
  const target = TARGETS[key]
  if (!target) throw new Error(`Codex has no native binary for ${key}`)
  const name = `@openai/codex-${key}`
  const require = createRequire(import.meta.url)
  const binary = join('vendor', target, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex')
  const path = join(dirname(require.resolve(`${name}/package.json`)), binary)
  if (!existsSync(path)) throw new Error(`${name} has no ${path}: run npm install`)
  return path
}

const codex = codexExecutable()
const home = mkdtempSync(join(tmpdir(), 'codex-schema-home-'))
const out = mkdtempSync(join(tmpdir(), 'codex-schema-out-'))
try {
  const env = { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home }
  const version = /\d+\.\d+\.\d+\S*/.exec(execFileSync(codex, ['--version'], { env, encoding: 'utf8' }))?.[0]
  if (!version) throw new Error(`could not read the version of ${codex}`)
  execFileSync(codex, ['app-server', 'generate-json-schema', '--out', out], { env, stdio: ['ignore', 'ignore', 'inherit'] })
  const fixture = fileURLToPath(new URL(`../test/fixtures/codex-schema-${version}/`, import.meta.url))
  mkdirSync(fixture, { recursive: true })
  copyFileSync(join(out, BUNDLE), join(fixture, BUNDLE))
  process.stdout.write(`wrote ${join(fixture, BUNDLE)} (codex-cli ${version})\n`)
} finally {
  rmSync(home, { recursive: true, force: true })
  rmSync(out, { recursive: true, force: true })
}
