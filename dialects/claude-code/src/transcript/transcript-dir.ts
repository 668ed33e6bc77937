import { join, resolve } from 'node:path'

/** Claude Code's folder name for a project: the absolute path with every non-alphanumeric character replaced by `-`. */
export function projectFolderName(projectDir: string): string {
  return resolve(projectDir).replace(/[^a-zA-Z0-9]/g, '-')
}

/** `<configDir>/projects/<munged project dir>`, where Claude Code keeps a project's transcripts. */
export function defaultTranscriptDir(configDir: string, projectDir: string): string {
  return join(resolve(configDir), 'projects', projectFolderName(projectDir))
}

/** `<transcriptDir>/<sessionId>.jsonl`. */
export function transcriptFile(transcriptDir: string, sessionId: string): string {
  return join(resolve(transcriptDir), `${sessionId}.jsonl`)
}
