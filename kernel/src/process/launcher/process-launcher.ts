import { existsSync } from 'node:fs'
import { type LaunchedRunHandlers, LauncherChild } from './launcher-child.js'
import type { RunControl, RunRequest } from './launcher-protocol.js'
import { launcherScript } from './launcher-script.js'

/** A young generation of 1 MiB semispaces keeps what the launcher touches, and so what each fork copies, small. */
export const LAUNCHER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1']

export interface ProcessLauncherOptions {
  /** The launcher's script. Default the built `launcher-main.js` of this package (or of the bundle it is part of). */
  script?: string
  /** Flags for the launcher's Node. Default `LAUNCHER_NODE_FLAGS`. */
  nodeFlags?: readonly string[]
  /** How long the launcher may take to start before it counts as unable to. Default 10 s. */
  startTimeoutMs?: number
}

/**
 * The process launcher as a service: started on the first run, started again on the next run after it died. Where it
 * cannot start (its script is missing, Node cannot run it, it does not answer), `unavailable` says why from then on,
 * and runs go elsewhere.
 */
export class ProcessLauncher {
  static #shared: ProcessLauncher | undefined

  /** The launcher of this process, shared by every runner that is given none. */
  static shared(): ProcessLauncher {
    ProcessLauncher.#shared ??= new ProcessLauncher()
    return ProcessLauncher.#shared
  }

  readonly script: string
  readonly #nodeFlags: readonly string[]
  readonly #startTimeoutMs: number
  #child: LauncherChild | undefined
  #unavailable: string | undefined
  #nextId = 1

  constructor(options: ProcessLauncherOptions = {}) {
    this.script = options.script ?? launcherScript()
    this.#nodeFlags = options.nodeFlags ?? LAUNCHER_NODE_FLAGS
    this.#startTimeoutMs = options.startTimeoutMs ?? 10_000
  }

  /** Why no launcher can run here; undefined while one can. */
  get unavailable(): string | undefined {
    return this.#unavailable
  }

  /** The running launcher's pid, if one runs. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /**
   * Sends a run to the launcher (started if none runs); returns what sends the run's later requests, or undefined when
   * no launcher can run (`unavailable`).
   */
  launch(request: Omit<RunRequest, 'type' | 'id'>, handlers: LaunchedRunHandlers): ((control: RunControl) => void) | undefined {
    const child = this.#running()
    if (child === undefined) return undefined
    const id = this.#nextId++
    child.launch({ type: 'run', id, ...request }, handlers)
    return (control) => child.send({ ...control, id })
  }

  /** Ends the running launcher, if any: its runs fail as after its death. A later run starts a new one. */
  close(): void {
    this.#child?.kill('the process launcher was closed')
  }

  #running(): LauncherChild | undefined {
    if (this.#unavailable !== undefined) return undefined
    if (this.#child !== undefined) return this.#child
    if (!existsSync(this.script)) {
      this.#unavailable = `the process launcher's script ${this.script} does not exist (not built, or left out of a bundle)`
      return undefined
    }
    try {
      const child: LauncherChild = new LauncherChild({
        script: this.script,
        nodeFlags: this.#nodeFlags,
        startTimeoutMs: this.#startTimeoutMs,
        onEnd: ({ ready, closed, cause }) => {
          if (this.#child === child) this.#child = undefined
          if (!ready && !closed) this.#unavailable = cause
        },
      })
      this.#child = child
    } catch (error) {
      this.#unavailable = `the process launcher could not be spawned: ${error instanceof Error ? error.message : String(error)}`
    }
    return this.#child
  }
}
