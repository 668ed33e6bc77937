import type { ProtocolMessage } from './json-rpc-connection.js'

export type CodexApprovalPolicy = 'never' | 'on-request' | 'on-failure'
export type CodexSandbox = 'read-only' | 'workspace-write' | 'danger-full-access'

/** A Responses-compatible endpoint for Codex's model provider. */
export interface CodexProvider {
  /** e.g. `https://api.openai.com/v1`. */
  baseUrl: string
  /** The environment variable Codex reads the key from. Default `OPENAI_API_KEY`. */
  envKey?: string
  /** The provider's display name. Default `harness-kernel`. */
  name?: string
  /** Codex's retries of a failed request or stream. Default: Codex's own. */
  requestMaxRetries?: number
  streamMaxRetries?: number
}

export interface CodexDriverOptions {
  /** The model Codex asks its provider for. Default: Codex's own choice. */
  model?: string
  /** Codex's model provider. Default: Codex's built-in OpenAI provider. */
  provider?: CodexProvider
  /** The native `codex` binary. Default: the one `@openai/codex`'s platform package installed. */
  executable?: string
  /** Codex's environment: `process.env` with these over it (`undefined` removes a variable). */
  env?: Record<string, string | undefined>
  /**
   * `CODEX_HOME`: Codex's config, sessions and state. `isolated` (default): a folder of the session's own
   * under the kernel's state, holding the `config.toml` the driver writes; `user`: Codex's usual place
   * (`~/.codex`, its config as the user keeps it); any other string: that folder (the driver writes its
   * `config.toml` there).
   */
  codexHome?: 'isolated' | 'user' | (string & {})
  /** Codex's built-in tools besides the kernel's. Default: shell and multi-agent off. */
  builtinTools?: { shell?: boolean; multiAgent?: boolean }
  /**
   * When Codex asks before a built-in command (`on-request`: when the model asks to escalate out of the
   * sandbox; the question goes to `tools/permission-request`). Default `never`. `untrusted` is refused:
   * Codex 0.169.0 no longer starts with it.
   */
  approvalPolicy?: CodexApprovalPolicy
  /** The sandbox of Codex's built-in commands. Default `workspace-write`. */
  sandbox?: CodexSandbox
  /** More `thread/start` config overrides (dotted keys, as `codex -c`), under the driver's own. */
  config?: Record<string, unknown>
  /** How long a `turn/steer` may go unanswered before the steer counts as ambiguous. Default 5,000 ms. */
  steerTimeoutMs?: number
  /** How long `initialize`, `thread/start` and `turn/start` may take. Default 60,000 ms. */
  requestTimeoutMs?: number
  /**
   * Sees every JSON-RPC message to and from Codex, in order, before the driver handles it: for a protocol
   * log (`codex app-server`'s wire, as drivers.md shows it). It must not throw.
   */
  onProtocolMessage?: (entry: ProtocolMessage) => void
}

export const DEFAULT_STEER_TIMEOUT_MS = 5_000
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000

const POLICIES: readonly string[] = ['never', 'on-request', 'on-failure']

/** Refuses what Codex would refuse at start, before any process runs. */
export function checkOptions(options: CodexDriverOptions): void {
  const policy: string | undefined = options.approvalPolicy
  if (policy !== undefined && !POLICIES.includes(policy)) {
    throw new TypeError(
      policy === 'untrusted'
        ? 'codexDriver: approvalPolicy "untrusted" is not supported (Codex 0.169.0 exits at start with it); use "on-request"'
        : `codexDriver: approvalPolicy must be one of ${POLICIES.join(', ')}, not ${JSON.stringify(policy)}`,
    )
  }
  if (options.provider && !/^https?:\/\//.test(options.provider.baseUrl)) {
    throw new TypeError(`codexDriver: provider.baseUrl must be an http(s) URL, not ${JSON.stringify(options.provider.baseUrl)}`)
  }
}
