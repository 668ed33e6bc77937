import { resolve } from 'node:path'

/** Paths from the model are absolute or relative to the session's working directory. */
export function resolvePath(cwd: string, path: string): string {
  return resolve(cwd, path)
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** A message for the model about a failed file operation on `file`. */
export function describeFsError(error: unknown, file: string, action: 'read' | 'write' | 'edit'): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return action === 'write' ? `Could not write ${file}: no such file or directory` : `File not found: ${file}`
    case 'EISDIR':
      return `${file} is a directory, not a file`
    case 'ENOTDIR':
      return `Could not ${action} ${file}: a component of the path is not a directory`
    case 'EROFS':
      return `Could not ${action} ${file}: read-only file system (the sandbox does not let this session write there)`
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: cannot ${action} ${file}`
    default: {
      const message = error instanceof Error ? error.message : String(error)
      // The sandbox's own messages already name the file.
      return message.startsWith('Could not ') ? message : `Could not ${action} ${file}: ${message}`
    }
  }
}
