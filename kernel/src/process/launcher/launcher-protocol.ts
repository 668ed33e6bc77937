import type { ProcessOutputStream, ProcessRunOptions, ProcessRunResult } from '../../process-runner.js'
import type { RunnerSettings } from '../run-process.js'
import type { EnvironmentRef } from './environment-slots.js'

/**
 * The messages between the kernel and its process launcher, as frames on a pipe (`launcher-frames.ts`: stdin and output
 * bytes pass as they are). One run is one `run` message; what comes back names it by `id`.
 */

/** A run as the launcher gets it: the environment already resolved in the kernel, no callbacks; its stdin apart. */
export type LaunchedRun = Omit<ProcessRunOptions, 'env' | 'extendEnv' | 'stdin' | 'signal' | 'onOutput' | 'onStdin' | 'onStart'> & {
  env: Record<string, string | undefined>
}

/** A run as the kernel hands it to its launcher, the environment whole. */
export interface RunRequest {
  type: 'run'
  id: number
  run: LaunchedRun
  /** The run's `stdin`; bytes go raw after the message's line. */
  stdin?: string | Uint8Array
  settings: RunnerSettings
  /** The caller asked for `onOutput`: send every chunk. */
  output: boolean
  /** The caller asked for `onStdin`: keep stdin open for `stdin` and `stdin-end` messages. */
  keepStdinOpen: boolean
}

/** What the kernel hands its launcher: a run, or word about one sent before. */
export type KernelRequest = RunRequest | (RunControl & { id: number })

/** From the kernel to the launcher, on the pipe: a run names its environment by slot (`environment-slots.ts`). */
export type LauncherRequest =
  | (Omit<RunRequest, 'run'> & { run: Omit<LaunchedRun, 'env'>; env: EnvironmentRef })
  | (RunControl & { id: number })

/**
 * What the kernel may say about a run once it was sent: abort it, write to its open stdin (`write` numbers it), close
 * that, send no more of a stream's output (the caller's `onOutput` stopped it).
 */
export type RunControl =
  | { type: 'abort' }
  | { type: 'stdin'; write: number; chunk: string | Uint8Array }
  | { type: 'stdin-end' }
  | { type: 'output-stop'; stream: ProcessOutputStream }

/** From the launcher to the kernel. */
export type LauncherEvent =
  /** Sent once, when the launcher is listening. */
  | { type: 'ready' }
  | { type: 'started'; id: number; pid: number; startTicks?: number | undefined }
  | { type: 'output'; id: number; stream: ProcessOutputStream; chunk: Uint8Array }
  /** A `stdin` message's bytes were handed to the pipe (or why not). */
  | { type: 'stdin-written'; id: number; write: number; error?: string | undefined }
  | { type: 'result'; id: number; result: ProcessRunResult }
