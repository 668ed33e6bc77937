// The kernel side of both suites: are the built packages there, and one scenario's run in a
// kernel child process (the suite's lib/kernel-child.mjs) with its own cwd and env.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { lastLines, runProcess } from './process.mjs'

/**
 * Imports each `[package, file, export]` and checks that it exports that function.
 * @param {[string, string, string][]} modules
 * @returns {Promise<{ ok: false, reason: string } | undefined>}  undefined when all are there
 */
export async function probeModules(modules) {
  for (const [pkg, file, name] of modules) {
    if (!existsSync(file)) return { ok: false, reason: `${pkg} is not built (${file} missing; run \`tsc -b\`)` }
    let mod
    try {
      mod = await import(pathToFileURL(file).href)
    } catch (error) {
      return { ok: false, reason: `${pkg} failed to load: ${error.message}` }
    }
    if (typeof mod[name] !== 'function') return { ok: false, reason: `${pkg} does not export ${name}() yet (${file})` }
  }
  return undefined
}

/**
 * Writes `job` to `<dir>/job.json` and runs `childScript` on it with `process.execPath`, in `cwd` with `env`, killed
 * (SIGKILL) after `timeoutMs`; its stderr goes to `<dir>/kernel.stderr`. The child writes `job.resultFile`.
 * @returns {Promise<{ child: object | null, error?: string, durationMs: number }>}  child: what it wrote; error: why the run failed
 */
export async function runKernelJob(childScript, dir, job, { cwd, env, timeoutMs }) {
  writeFileSync(join(dir, 'job.json'), `${JSON.stringify(job, null, 2)}\n`)
  const started = Date.now()
  const run = await runProcess(process.execPath, [childScript, join(dir, 'job.json')], { cwd, env, timeoutMs, killSignal: 'SIGKILL' })
  writeFileSync(join(dir, 'kernel.stderr'), run.stderr)
  const durationMs = Date.now() - started
  const child = existsSync(job.resultFile) ? JSON.parse(readFileSync(job.resultFile, 'utf8')) : null
  let error
  if (run.timedOut) error = `timed out after ${timeoutMs} ms`
  else if (!child) error = `kernel child exited ${run.code} without a result: ${lastLines(run.stderr, 5)}`
  else if (child.error) error = child.error.split('\n').slice(0, 6).join('\n')
  return { child, error, durationMs }
}
