import type { ProcessRunner } from '../process-runner.js'
import { checkShellEnvironmentPolicy, type ShellEnvironmentPolicy, shellEnvironment } from './shell-environment.js'

/**
 * `inner`, with what a child inherits from the kernel's environment filtered by `policy`; the variables a run sets
 * itself (a hook's `CLAUDE_PROJECT_DIR`, say) are kept on top, since the protocol needs them. The policy is checked
 * here, so a bad one fails when it is configured.
 */
export function environmentPolicyRunner(
  inner: ProcessRunner,
  policy: ShellEnvironmentPolicy,
  where: string,
  source: Readonly<Record<string, string | undefined>> = process.env,
): ProcessRunner {
  checkShellEnvironmentPolicy(policy, where)
  return {
    run: (options) =>
      inner.run({
        ...options,
        env: { ...shellEnvironment(options.extendEnv === false ? {} : source, policy), ...options.env },
        extendEnv: false,
      }),
  }
}
