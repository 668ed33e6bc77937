import type { SandboxConfinement, SandboxPolicy } from '../guardrails/types.js'
import { writableRoots } from '../guardrails/writable-roots.js'
import { confinedRoots, confinementArgs } from './confined-layout.js'
import { protectedPaths } from './protected-paths.js'

export interface BwrapLayoutOptions {
  /** The guardrails' policy; `dangerFullAccess` only with a confinement, which then confines alone. */
  policy: SandboxPolicy
  /** More confinement for this call (it only narrows). */
  confinement?: SandboxConfinement | undefined
  /** The session's working directory: a writable root under `workspaceWrite`. */
  cwd: string
  /** Where `TMPDIR` is read. */
  env: NodeJS.ProcessEnv
}

/**
 * bubblewrap's arguments before the command, as Codex builds them: everything read-only, a fresh /dev and /proc,
 * the writable roots bound read-write (parents first, so a child's bind is not hidden by its parent's), then their
 * protected names read-only again. The roots are looked up at each call: one created since is writable.
 */
export function bwrapLayout(options: BwrapLayoutOptions): string[] {
  const { policy, confinement } = options
  const policyRoots = policy.type === 'dangerFullAccess' ? undefined : writableRoots(policy, options.cwd, options.env)
  const roots = (confinement === undefined ? (policyRoots ?? []) : confinedRoots(policyRoots, confinement)).sort(
    (a, b) => a.length - b.length,
  )
  // As root, bubblewrap keeps every capability (CAP_SYS_ADMIN could remount / read-write): drop them all. A user
  // namespace keeps even the bounding set empty; it is what bubblewrap uses anyway when not run as root.
  // No --new-session: the command stays in the runner's process group, so a kill reaches it even while bubblewrap is
  // still setting up (before --die-with-parent holds); the group already has a session of its own and no terminal.
  // --as-pid-1: the command is the namespace's init, so nothing of bubblewrap's is left behind as a zombie once it
  // exits (a host whose init reaps slowly kept one in the runner's group, and the runner then scanned /proc for it).
  // What the command leaves running still ends with it: the namespace goes when its init does.
  const args = ['--unshare-user', '--cap-drop', 'ALL', '--die-with-parent', '--unshare-pid', '--as-pid-1']
  // A confined call never has the network itself: at most a proxy the confinement names (`bwrapInvocation`).
  if (confinement !== undefined || !policyNetwork(policy)) args.push('--unshare-net')
  args.push('--ro-bind', '/', '/', '--dev', '/dev')
  for (const root of roots) args.push('--bind', root, root)
  // Codex's protected names are the policy's: a confinement under full access protects what it names in denyWrite.
  if (policyRoots !== undefined) for (const path of protectedPaths(roots)) args.push('--ro-bind', path, path)
  if (confinement !== undefined) args.push(...confinementArgs(confinement))
  args.push('--proc', '/proc')
  return args
}

/** Whether a policy lets a command use the network. */
export function policyNetwork(policy: SandboxPolicy): boolean {
  return policy.type === 'dangerFullAccess' || policy.networkAccess
}
