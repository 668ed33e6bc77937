// Where things are: the repository, the shared real-client harness, the real Codex binary
// (what both suites share is in ../../lib/real-clients.mjs, the binaries and pins in ../../lib/pinned-clients.mjs).
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findCodex, pinnedCodexVersion } from '../../lib/pinned-clients.mjs'
import { envCleaner, probeClient, REPO_ROOT, realClientsDir } from '../../lib/real-clients.mjs'

export { makeTempRoot, REPO_ROOT, realClientsDir, realClientsHome } from '../../lib/real-clients.mjs'

export const SUITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const HOOK_SCRIPT = join(SUITE_DIR, 'lib', 'hook.sh')
export const SCENARIOS_DIR = join(SUITE_DIR, 'scenarios')
export const EXPECTED_DIR = join(SUITE_DIR, 'expected')
export const GOLDEN_DIR = join(REPO_ROOT, 'dialects', 'codex', 'test', 'fixtures', 'golden')
/** The version drivers/codex/package.json pins. */
export const CODEX_VERSION = pinnedCodexVersion()

export function runCaseScript() {
  return join(realClientsDir(), 'codex', 'run-case.sh')
}

/** The codex the suite runs: CODEX_BIN, the workspace's, or $REAL_CLIENTS_HOME's (../../lib/pinned-clients.mjs). */
export const codexBin = () => findCodex().bin

/**
 * Is the real Codex there? Never installs or downloads anything.
 * @returns {{ ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }}
 */
export function probeCodex() {
  return probeClient({
    bin: codexBin(),
    script: runCaseScript(),
    expected: `codex-cli ${CODEX_VERSION}`,
    versionOk: (version) => version.includes(CODEX_VERSION),
    timeoutMs: 20_000,
  })
}

/** Variables of the harnesses that must not leak into the clients' (and so the hooks') env. */
export const HARNESS_VARS = [
  'OUT',
  'RC_SNAPSHOT',
  'MODE',
  'CODEX_TIMEOUT',
  'APPROVAL',
  'SANDBOX',
  'TRUST',
  'EXEC_TRUST_FLAG',
  'APP_ARGS',
  'HOOK_OUT',
  'HOOK_RESP',
  'CODEX_HOME',
]

export const cleanEnv = envCleaner(HARNESS_VARS)

/** The env of the shared scripts (run-case.sh): `cleanEnv(extra)` with CODEX_BIN set to the codex this suite probed. */
export const scriptEnv = (extra = {}) => cleanEnv({ CODEX_BIN: codexBin(), ...extra })
