import type { ProcessRunOptions } from '../process-runner.js'

export interface CommandLine {
  file: string
  args: string[]
}

/** The exact argv: `<shell> -c <command>` with a shell (extra args are quoted onto the line), else the executable and its args. */
export function commandLine(options: Pick<ProcessRunOptions, 'command' | 'args' | 'shell'>): CommandLine {
  const args = options.args ?? []
  if (options.shell === undefined || options.shell === false) return { file: options.command, args: [...args] }
  const shell = typeof options.shell === 'string' && options.shell.length > 0 ? options.shell : '/bin/sh'
  const line = args.length === 0 ? options.command : [options.command, ...args.map(shellQuote)].join(' ')
  return { file: shell, args: ['-c', line] }
}

export function shellQuote(value: string): string {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value
  return `'${value.replaceAll("'", `'\\''`)}'`
}

export function childEnv(options: Pick<ProcessRunOptions, 'env' | 'extendEnv'>): Record<string, string | undefined> {
  return options.extendEnv === false ? { ...options.env } : { ...process.env, ...options.env }
}
