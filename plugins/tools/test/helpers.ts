import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  bwrapSandbox,
  DEFAULT_GUARDRAILS_POLICY,
  ExecProcessRunner,
  type Session,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
} from '@harness-kernel/kernel'

export function tempDir(): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'harness-tools-')))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

const processRunner = new ExecProcessRunner()
const sandbox = bwrapSandbox()

/**
 * Tools never touch the session, so a stub stands in for it. Processes run as they are; files are written through the
 * kernel's default sandbox (workspace-write over `cwd`), as the kernel writes them.
 */
export function toolContext(cwd: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  const policy = DEFAULT_GUARDRAILS_POLICY.sandbox
  return {
    session: {} as Session,
    cwd,
    callId: 'call-1',
    signal,
    processRunner,
    sandbox: { policy, writeFile: (path, content) => sandbox.writeFile({ policy, cwd, path, content, signal }) },
  }
}

/** Validates the input with the tool's schema first, as the kernel does. */
export async function callTool<Input>(tool: ToolDefinition<Input>, input: unknown, context: ToolContext): Promise<ToolOutput> {
  return tool.execute(tool.inputSchema.parse(input), context)
}

export { waitUntil } from '@harness-kernel/testing'
