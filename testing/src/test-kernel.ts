import { readFileSync } from 'node:fs'
import {
  createKernel,
  type Kernel,
  type KernelOptions,
  type Plugin,
  type Session,
  type SessionEvent,
  type TurnInput,
  type TurnResult,
} from '@harness-kernel/kernel'
import { createTempProject, type TempProject } from './temp-project.js'

export interface TestKernelOptions {
  /** The plugins to compose, a model among them (a scripted model, or a provider pointed at a fake server). */
  plugins: Plugin[] | ((project: TempProject) => Plugin[])
  /** Kernel options; `cwd` defaults to the project, and model retries wait 1-2 ms instead of up to 4 s. */
  kernel?: KernelOptions
  /** Files the project starts with: relative path → content. */
  files?: Record<string, string>
  /** Leave the project folder in place on dispose (to look at it after a failure). */
  keepProject?: boolean
}

/** One turn's result and what the session log recorded during it. */
export interface TurnOutcome {
  status: TurnResult['status']
  /** The last assistant text of the turn. */
  text: string | null
  result: TurnResult
  /** The session log's events written during the turn, in order. */
  events: SessionEvent[]
}

/** A kernel over a temporary project, with one session started. */
export interface TestKernel {
  readonly project: TempProject
  readonly kernel: Kernel
  readonly session: Session
  run(input: TurnInput): Promise<TurnOutcome>
  /** Every event of the session's log so far. */
  events(): SessionEvent[]
  /** Disposes the kernel and removes the project. */
  dispose(): Promise<void>
}

/** The events of a session log (JSON lines). */
export function readSessionEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

export async function startTestKernel(options: TestKernelOptions): Promise<TestKernel> {
  const project = createTempProject({ prefix: 'harness-test-', ...(options.files ? { files: options.files } : {}) })
  let kernel: Kernel | undefined
  try {
    const plugins = typeof options.plugins === 'function' ? options.plugins(project) : options.plugins
    kernel = createKernel(plugins, { cwd: project.dir, modelRetry: { initialDelayMs: 1, maxDelayMs: 2 }, ...options.kernel })
    const session = await kernel.startSession()
    const composed = kernel
    const events = () => readSessionEvents(session.transcriptPath)
    return {
      project,
      kernel: composed,
      session,
      events,
      async run(input) {
        const before = events().length
        const result = await session.run(input)
        return { status: result.status, text: result.lastAssistantMessage, result, events: events().slice(before) }
      },
      async dispose() {
        try {
          await composed.dispose()
        } finally {
          if (!options.keepProject) project.remove()
        }
      },
    }
  } catch (error) {
    await kernel?.dispose()
    if (!options.keepProject) project.remove()
    throw error
  }
}

/** Runs one turn on a new kernel in a new temporary project, then disposes both; the outcome outlives them. */
export async function runKernelTurn(options: TestKernelOptions & { prompt: TurnInput }): Promise<TurnOutcome> {
  const test = await startTestKernel(options)
  try {
    return await test.run(options.prompt)
  } finally {
    await test.dispose()
  }
}
