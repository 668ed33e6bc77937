import {
  checkShellEnvironmentPolicy,
  defineTool,
  type ProcessRunResult,
  type ShellEnvironmentPolicy,
  shellEnvironment,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolOutputStream,
} from '@harness-kernel/kernel'
import { z } from 'zod'
import { resolvePath } from './fs-errors.js'

export interface ShellToolOptions {
  /** Default for calls that give no `timeout_ms`. Default 120000 ms. */
  timeoutMs?: number
  /** Bytes kept per stream (the tail). Default 64 KiB. */
  maxOutputBytes?: number
  /** Default '/bin/bash'. */
  shell?: string
  /**
   * Which of the kernel's environment variables each command sees (Codex's `shell_environment_policy`). Default: all
   * of them but those whose name holds KEY, SECRET or TOKEN.
   */
  environment?: ShellEnvironmentPolicy
}

export interface ShellInput {
  command: string
  timeout_ms?: number | undefined
  workdir?: string | undefined
  /** Codex's escalation parameters: `require_escalated` asks to run outside the sandbox. */
  sandbox_permissions?: 'use_default' | 'require_escalated' | undefined
  justification?: string | undefined
  prefix_rule?: string[] | undefined
}

/** Codex's own refusal of a justification given without asking for anything (guardrails.md §2.2). */
export const JUSTIFICATION_WITHOUT_ESCALATION =
  '`justification` requires an explicit `sandbox_permissions`; use `sandbox_permissions: "require_escalated"` for unsandboxed execution, or omit `justification`.'

export function shellTool(options: ShellToolOptions = {}): ToolDefinition<ShellInput> {
  const timeoutMs = options.timeoutMs ?? 120_000
  const maxOutputBytes = options.maxOutputBytes ?? 64 * 1024
  const shell = options.shell ?? '/bin/bash'
  const environment = options.environment ?? {}
  checkShellEnvironmentPolicy(environment, 'shell.environment')
  const inputSchema = z
    .object({
      command: z.string().min(1).describe(`The command line, run with \`${shell} -c\`.`),
      timeout_ms: z
        .number()
        .int()
        .positive()
        .optional()
        .describe(`Kill the command and everything it started after this many milliseconds. Default ${timeoutMs}.`),
      workdir: z.string().optional().describe("Working directory: absolute, or relative to the session's working directory (the default)."),
      sandbox_permissions: z
        .enum(['use_default', 'require_escalated'])
        .optional()
        .describe(
          'Commands run in a sandbox by default. "require_escalated" asks the user to run this one outside it (when the approval policy lets you ask); default "use_default".',
        ),
      justification: z
        .string()
        .optional()
        .describe(
          'Only with sandbox_permissions "require_escalated": a short question for the user that says why the command must run outside the sandbox.',
        ),
      prefix_rule: z
        .array(z.string())
        .optional()
        .describe(
          'Only with sandbox_permissions "require_escalated": a short command prefix (e.g. ["npm", "install"]) the user may allow from now on.',
        ),
    })
    .superRefine((input, issues) => {
      if (input.justification !== undefined && input.sandbox_permissions === undefined)
        issues.addIssue({ code: 'custom', path: ['justification'], message: JUSTIFICATION_WITHOUT_ESCALATION })
    })
    .describe('A shell command to run.')
  return defineTool<ShellInput>({
    name: 'shell',
    description:
      `Runs a command with \`${shell} -c\` and returns its stdout, then its stderr, and the exit code when it is not 0. ` +
      "Every call starts a fresh shell (cd and exports do not carry over) with stdin closed, inside the session's sandbox. " +
      `When the command ends, anything it left running in the background is killed. Long output keeps the last ${maxOutputBytes} bytes of each stream.`,
    inputSchema,
    aliases: { codex: 'Bash', claudeCode: 'Bash' },
    guard: (input, { cwd }) => ({
      kind: 'command',
      command: input.command,
      cwd: resolvePath(cwd, input.workdir ?? '.'),
      ...(input.sandbox_permissions === 'require_escalated'
        ? {
            escalation: {
              ...(input.justification === undefined ? {} : { justification: input.justification }),
              ...(input.prefix_rule === undefined ? {} : { prefixRule: input.prefix_rule }),
            },
          }
        : {}),
    }),
    async execute(input, context) {
      const timeout = input.timeout_ms ?? timeoutMs
      const streamed = context.output ? streamOutput(context.output) : undefined
      const result = await context.processRunner.run({
        command: input.command,
        shell,
        cwd: resolvePath(context.cwd, input.workdir ?? '.'),
        // Built afresh for every call, from the kernel's environment as it is then.
        env: shellEnvironment(process.env, environment),
        extendEnv: false,
        timeoutMs: timeout,
        signal: context.signal,
        maxOutputBytes,
        ...(streamed ? { onOutput: streamed.chunk } : {}),
      })
      streamed?.end()
      return formatShellResult(result, timeout)
    },
  })
}

/** Decodes each stream's chunks as UTF-8 (a character split across chunks is passed on whole) for `context.output`. */
function streamOutput(output: NonNullable<ToolContext['output']>) {
  const decoders = { stdout: new TextDecoder('utf-8'), stderr: new TextDecoder('utf-8') }
  const pass = (stream: ToolOutputStream, text: string) => {
    if (text !== '') output(stream, text)
  }
  return {
    chunk: (stream: ToolOutputStream, chunk: Uint8Array) => pass(stream, decoders[stream].decode(chunk, { stream: true })),
    end: () => {
      for (const stream of ['stdout', 'stderr'] as const) pass(stream, decoders[stream].decode())
    },
  }
}

/** The model's view of a run: stdout, then stderr, then one bracketed line per notable fact. */
export function formatShellResult(result: ProcessRunResult, timeoutMs: number): ToolOutput {
  if (result.spawnError !== undefined) return { output: `[failed to start: ${result.spawnError}]`, isError: true }
  const parts: string[] = []
  if (result.stdoutBytes > 0) parts.push(stream('stdout', result.stdout, result.stdoutBytes, result.stdoutTruncated))
  if (result.stderrBytes > 0) parts.push(`[stderr]\n${stream('stderr', result.stderr, result.stderrBytes, result.stderrTruncated)}`)
  if (result.timedOut) parts.push(`[timed out after ${timeoutMs} ms]`)
  else if (result.aborted) parts.push('[aborted]')
  else if (result.signal !== null) parts.push(`[killed by ${result.signal}]`)
  if (result.exitCode !== null && result.exitCode !== 0) parts.push(`[exit code: ${result.exitCode}]`)
  const isError = result.exitCode !== 0 || result.timedOut || result.aborted
  if (parts.length === 0) parts.push('[no output]')
  const details = {
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
  }
  return { output: parts.map((part) => part.replace(/\n$/, '')).join('\n'), isError, details }
}

function stream(name: 'stdout' | 'stderr', text: string, totalBytes: number, truncated: boolean): string {
  if (!truncated) return text
  // The tail is kept, so the note goes where the missing part would be.
  return `[${name} truncated: kept last ${Buffer.byteLength(text)} of ${totalBytes} bytes]\n${text}`
}
