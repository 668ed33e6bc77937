import { stat } from 'node:fs/promises'

/** A one-line reason a process could not be started, naming the cwd when that is the cause (Node blames the executable). */
export async function describeSpawnError(error: unknown, file: string, cwd: string): Promise<string> {
  if (file === '') return 'the command is empty'
  const cwdProblem = await checkCwd(cwd)
  if (cwdProblem !== undefined) return cwdProblem
  const code = errorCode(error)
  if (code === 'ENOENT') return `command not found: ${file} (ENOENT)`
  if (code === 'EACCES') return `permission denied: ${file} (EACCES)`
  return `could not start ${file}: ${errorMessage(error)}`
}

async function checkCwd(cwd: string): Promise<string | undefined> {
  try {
    const stats = await stat(cwd)
    return stats.isDirectory() ? undefined : `cwd is not a directory: ${cwd} (ENOTDIR)`
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') return `cwd does not exist: ${cwd} (ENOENT)`
    return `cwd is not accessible: ${cwd} (${code ?? errorMessage(error)})`
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function errorMessage(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error)
  return String((error as { message?: unknown }).message)
    .split('\n')
    .filter(Boolean)
    .join('; ')
}
