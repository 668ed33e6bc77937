import type { HandlerRunOutcome, HandlerRunResult, HandlerRunSpec, RunnerServices } from './handler-run.js'
import { runCommandHandler } from './run-command-handler.js'
import { runHttpHandler } from './run-http-handler.js'
import { runMcpToolHandler } from './run-mcp-tool-handler.js'
import { runPromptHandler } from './run-prompt-handler.js'

/**
 * Starts every handler at once (commands, http, prompts and MCP tools alike) and waits for all of them. Results come back in input
 * order; `completionIndex` is the finish order. A handler that fails never loses another's result.
 */
export async function runHandlers(services: RunnerServices, specs: readonly HandlerRunSpec[]): Promise<HandlerRunResult[]> {
  let finished = 0
  return Promise.all(
    specs.map(async (spec) => {
      const startedAt = Date.now()
      const outcome = await runSafely(services, spec)
      return { ...outcome, startedAt, completedAt: Date.now(), completionIndex: finished++ }
    }),
  )
}

/** Runs one handler; `completionIndex` is 0. */
export async function runHandler(services: RunnerServices, spec: HandlerRunSpec): Promise<HandlerRunResult> {
  const [result] = await runHandlers(services, [spec])
  return result!
}

async function runSafely(services: RunnerServices, spec: HandlerRunSpec): Promise<HandlerRunOutcome> {
  const started = performance.now()
  try {
    return await runByType(services, spec)
  } catch (error) {
    return {
      kind: kindOf(spec),
      exitCode: null,
      stdout: '',
      stderr: '',
      timedOut: false,
      aborted: spec.signal?.aborted ?? false,
      durationMs: performance.now() - started,
      error: error instanceof Error ? error.message : String(error),
    }
  }
}

function runByType(services: RunnerServices, spec: HandlerRunSpec): Promise<HandlerRunOutcome> {
  const { handler } = spec
  switch (handler.type) {
    case 'command':
      return runCommandHandler(services.processRunner, handler, spec)
    case 'http':
      return runHttpHandler(services.fetch ?? globalThis.fetch, handler, spec)
    case 'prompt':
      return runPromptHandler(services.model, handler, spec)
    case 'mcp_tool':
      return runMcpToolHandler(services.mcpClients, handler, spec)
    default:
      throw new Error(`unsupported handler type: ${(handler as { type: unknown }).type}`)
  }
}

function kindOf(spec: HandlerRunSpec): HandlerRunResult['kind'] {
  const { type } = spec.handler
  return type === 'http' || type === 'prompt' || type === 'mcp_tool' ? type : 'command'
}
