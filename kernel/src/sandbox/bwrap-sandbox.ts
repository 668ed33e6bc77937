import { resolve } from 'node:path'
import type { Sandbox } from '../guardrails/types.js'
import { ExecProcessRunner } from '../process/exec-process-runner.js'
import type { ProcessRunner } from '../process-runner.js'
import { type BwrapAvailability, bwrapAvailability } from './bwrap-availability.js'
import { bwrapInvocation } from './bwrap-invocation.js'
import { bwrapLayout, policyNetwork } from './bwrap-layout.js'
import { directWriteFile } from './direct-write-file.js'
import { refusedRun } from './refused-run.js'
import { sandboxedWriteFile } from './sandboxed-write-file.js'

export interface BwrapSandboxOptions {
  /** The bubblewrap to use; default `HARNESS_BWRAP`, then `bwrap` on PATH, then the one `@openai/codex` ships. */
  bwrap?: string
  /** Where `HARNESS_BWRAP`, `PATH` and `TMPDIR` (a writable root) are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * Codex's sandbox on Linux, enforced by the OS through bubblewrap: `readOnly` and `workspaceWrite` run every process
 * in a read-only view of the filesystem with only the writable roots writable, and without network unless allowed;
 * `dangerFullAccess` runs them as they are. Where it cannot sandbox (no Linux, no bubblewrap, no user namespaces) a
 * confining policy runs nothing: every run and write fails with the reason, never falling back to running unconfined.
 */
export function bwrapSandbox(options: BwrapSandboxOptions = {}): Sandbox {
  const env = options.env ?? process.env
  let availability: BwrapAvailability | undefined
  // Probed once, on first use: a synchronous spawn of bubblewrap.
  const available = () => {
    availability ??= bwrapAvailability({ bwrap: options.bwrap, env })
    return availability
  }
  let writer: ProcessRunner | undefined

  const sandbox: Sandbox = {
    unavailable: () => available().unavailable,

    runner({ policy, cwd, inner, confinement }) {
      if (policy.type === 'dangerFullAccess' && confinement === undefined) return inner
      return {
        run: async (run) => {
          const { bwrap, unavailable } = available()
          if (bwrap === undefined) return refusedRun(unavailable)
          const layout = bwrapLayout({ policy, cwd, env, confinement })
          const confinedRun = confinement?.env === undefined ? run : { ...run, env: { ...run.env, ...confinement.env } }
          return inner.run(
            bwrapInvocation({ bwrap, layout, networkAccess: policyNetwork(policy), proxy: confinement?.proxy, run: confinedRun }),
          )
        },
      }
    },

    async writeFile({ policy, cwd, path, content, signal }) {
      const target = resolve(cwd, path)
      if (policy.type === 'dangerFullAccess') return directWriteFile({ path: target, content, signal })
      const { unavailable } = available()
      if (unavailable !== undefined) throw new Error(unavailable)
      writer ??= new ExecProcessRunner()
      const runner = sandbox.runner({ policy, cwd, inner: writer })
      return sandboxedWriteFile({ runner, cwd, path: target, content, signal })
    },
  }
  return sandbox
}
