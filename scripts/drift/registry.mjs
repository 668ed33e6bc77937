// The newest published version of a package, as `npm view <package> version` answers.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { DriftError } from './drift-error.mjs'

/** The last non-empty line of npm's error output, the one that says what went wrong (`npm error code E404`…). */
export const npmErrorLine = (stderr) =>
  String(stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^npm (error|ERR!) (A complete log|\s*$)/.test(line))
    .slice(0, 3)
    .join(' / ')

export async function newestVersion(pkg) {
  try {
    const { stdout } = await promisify(execFile)('npm', ['view', pkg, 'version'], { encoding: 'utf8', timeout: 120_000 })
    const version = stdout.trim()
    if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`npm view answered "${version}"`)
    return version
  } catch (error) {
    throw new DriftError(`could not ask the registry for the newest ${pkg}: ${npmErrorLine(error.stderr) || error.message}`)
  }
}
