// Case directories for shared/real-clients/codex/run-case.sh, and reading back what a run captured.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readJsonLines } from '../../lib/files.mjs'
import { orderOccurrences } from '../../lib/hook-calls.mjs'
import { runProcess } from '../../lib/process.mjs'
import { MCP_SERVER_SCRIPT } from '../../lib/real-clients.mjs'
import { HOOK_SCRIPT, runCaseScript, scriptEnv } from './env.mjs'

/**
 * `@HOOK@` in hook commands (hooks.json and config.extra.toml) becomes the path of lib/hook.sh, and `@MCP_SERVER@`
 * the path of conformance/lib/mcp-server.mjs.
 */
export function substituteHook(text) {
  return text.replaceAll('@HOOK@', HOOK_SCRIPT).replaceAll('@MCP_SERVER@', MCP_SERVER_SCRIPT)
}

/**
 * Writes the inputs of one run-case.sh case: plan.json, hooks.json, responses/, prompt.txt,
 * config.extra.toml and (app-server mode) scenario.json.
 * @param {string} dir
 * @param {{ plan: unknown, hooks: object, handlers?: Record<string,string>, prompt?: string, configExtra?: string, app?: object }} spec
 */
export function writeCaseDir(dir, spec) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'responses'), { recursive: true })
  writeFileSync(join(dir, 'plan.json'), `${JSON.stringify(spec.plan)}\n`)
  writeFileSync(join(dir, 'hooks.json'), `${substituteHook(JSON.stringify(spec.hooks, null, 2))}\n`)
  for (const [name, body] of Object.entries(spec.handlers ?? {})) writeFileSync(join(dir, 'responses', name), body)
  if (spec.prompt !== undefined) writeFileSync(join(dir, 'prompt.txt'), spec.prompt)
  if (spec.configExtra) writeFileSync(join(dir, 'config.extra.toml'), `${substituteHook(spec.configExtra)}\n`)
  if (spec.app) writeFileSync(join(dir, 'scenario.json'), `${JSON.stringify(spec.app)}\n`)
}

/**
 * Runs run-case.sh on a case directory that is already `<outDir>/<name>` (so it runs in place).
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export async function runCase(caseDir, outDir, { env = {}, args = [], timeoutMs = 150_000 } = {}) {
  const { code, stdout, stderr } = await runProcess(runCaseScript(), [caseDir, ...args], {
    // An empty HOME: Codex runs its shell commands as login shells, which read the machine's ~/.profile and ~/.bashrc
    // (a slow tool's init there stalls every command past its 10 s yield).
    env: scriptEnv({ OUT: outDir, CODEX_TIMEOUT: '90', HOME: isolatedHome(caseDir), ...env }),
    timeoutMs,
  })
  return { code, stdout, stderr }
}

/** `<case>/.home`, created empty (Codex's own files are under CODEX_HOME). */
export function isolatedHome(caseDir) {
  const home = join(caseDir, '.home')
  mkdirSync(home, { recursive: true })
  return home
}

function parseMeta(text) {
  const meta = {}
  for (const line of text.split('\n')) {
    const i = line.indexOf('=')
    if (i > 0) meta[line.slice(0, i)] = line.slice(i + 1)
  }
  return meta
}

/**
 * The hook calls lib/hook.sh recorded in `outDir`, in a deterministic order: by start time,
 * except that calls of one event that are adjacent in time (the concurrently started handlers of
 * one occurrence) are ordered by (invocation, tag), since their start order is a race.
 * @returns {{ event: string, tag: string, invocation: number, stdin: string, meta: Record<string,string>, base: string }[]}
 */
export function collectHookCalls(outDir) {
  if (!existsSync(outDir)) return []
  const calls = []
  for (const file of readdirSync(outDir).sort()) {
    const m = /^(\d+)-([A-Za-z]+)-(.+)-(\d+)\.stdin$/.exec(file)
    if (!m) continue
    const base = join(outDir, file.slice(0, -'.stdin'.length))
    const meta = existsSync(`${base}.meta`) ? parseMeta(readFileSync(`${base}.meta`, 'utf8')) : {}
    calls.push({
      ns: m[1],
      event: m[2],
      tag: m[3],
      invocation: Number(meta.invocation ?? 0),
      stdin: readFileSync(join(outDir, file), 'utf8'),
      meta,
      base,
    })
  }
  return orderOccurrences(calls).map(({ ns, ...call }) => call)
}

/** requests.jsonl of a run: the POST /v1/responses entries (body, lane, resolved plan step). */
export function readCodexRequests(caseDir) {
  return readJsonLines(join(caseDir, 'requests.jsonl')).filter((entry) => entry.method === 'POST' && /\/responses(\?|$)/.test(entry.url))
}
