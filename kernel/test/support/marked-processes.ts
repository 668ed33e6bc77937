import { readdirSync, readFileSync } from 'node:fs'

/**
 * Pids of live (not zombie) processes whose command line starts with `marker`: tests name the processes they leave
 * behind on purpose with `exec -a <marker>…`, so nothing else (a parent whose arguments mention it) is counted.
 */
export function processesNamed(marker: string): number[] {
  return processesWhere((cmdline) => cmdline.startsWith(marker))
}

/** Pids of live (not zombie) processes whose command line (NUL-separated argv) passes `test`. */
export function processesWhere(test: (cmdline: string) => boolean): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue
      if (test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) found.push(Number(entry))
    } catch {
      // exited while listed
    }
  }
  return found
}
