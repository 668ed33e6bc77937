// Codex's App Server protocol schema: the bundle a binary writes (`codex app-server generate-json-schema`, with HOME and
// CODEX_HOME in a temp folder so no user config is read, as transports/app-server/scripts/generate-codex-schema.mjs
// does), and the newest fixture the repository keeps.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from '../../conformance/lib/real-clients.mjs'
import { DriftError } from './drift-error.mjs'

const BUNDLE = 'codex_app_server_protocol.schemas.json'
const FIXTURES = join(REPO_ROOT, 'transports', 'app-server', 'test', 'fixtures')

const byVersion = (a, b) => {
  const [x, y] = [a.split(/[.-]/).map(Number), b.split(/[.-]/).map(Number)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0)
  return 0
}

/** The newest `codex-schema-<version>/` fixture: `{ version, schema }`. */
export function newestFixture() {
  const versions = readdirSync(FIXTURES)
    .map((name) => /^codex-schema-(\d+\.\d+\.\d+)$/.exec(name)?.[1])
    .filter(Boolean)
    .sort(byVersion)
  const version = versions.at(-1)
  if (!version) throw new DriftError(`no codex-schema-<version>/ fixture in ${FIXTURES}`)
  return { version, schema: JSON.parse(readFileSync(join(FIXTURES, `codex-schema-${version}`, BUNDLE), 'utf8')) }
}

/** The schema bundle `bin` writes. */
export function generateSchema(bin) {
  const home = mkdtempSync(join(tmpdir(), 'drift-codex-home-'))
  const out = mkdtempSync(join(tmpdir(), 'drift-codex-schema-'))
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home }
    execFileSync(bin, ['app-server', 'generate-json-schema', '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 })
    return JSON.parse(readFileSync(join(out, BUNDLE), 'utf8'))
  } catch (error) {
    throw new DriftError(`${bin} app-server generate-json-schema failed: ${String(error.stderr ?? '').trim() || error.message}`)
  } finally {
    rmSync(home, { recursive: true, force: true })
    rmSync(out, { recursive: true, force: true })
  }
}
