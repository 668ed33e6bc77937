import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { FleetPort, HooksListEntry, ListenTarget, WsAuth, WsAuthFlags } from '@harness-kernel/app-server'
import { appendRuleAmendment } from '@harness-kernel/codex'
import type { SessionStore } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'
import { codexSetup, loadHooks } from '../codex/codex-setup.js'
import { EXIT } from '../exit-codes.js'
import type { CliIo } from '../io.js'
import { hookListEntry } from '../render/hook-list.js'
import { watchSignals } from '../signals.js'
import { type BudgetFlags, budgetsFromFlags } from './budget-flags.js'
import type { HarnessOptions } from './harness-flags.js'
import { checkDriverFlag, harnessFromOptions } from './harness-options.js'

export interface AppServerCommandOptions extends HarnessOptions, WsAuthFlags, BudgetFlags {
  hostInputTimeout?: string
  steerOnTurnEnd?: string
  listen?: string
  stdio?: boolean
}

export async function appServer(options: AppServerCommandOptions, io: CliIo): Promise<number> {
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  checkDriverFlag(options)
  const steerOnTurnEnd = options.steerOnTurnEnd
  if (steerOnTurnEnd !== undefined && steerOnTurnEnd !== 'drop' && steerOnTurnEnd !== 'nextTurn') {
    throw new CliError(`--steer-on-turn-end must be drop or nextTurn, got ${JSON.stringify(steerOnTurnEnd)}`)
  }
  const timeout = options.hostInputTimeout === undefined ? undefined : Number(options.hostInputTimeout)
  if (timeout !== undefined && !(timeout > 0)) {
    throw new CliError(`--host-input-timeout must be a number of milliseconds, got ${options.hostInputTimeout}`)
  }
  const budgets = budgetsFromFlags(options)
  // Loaded here: `harness run` never needs the server.
  const appServerPackage = await import('@harness-kernel/app-server')
  // What Codex refuses before it starts anything is refused before the harness is composed.
  const listen = listenTarget(options, appServerPackage)
  const auth = listenAuth(options, listen, io.cwd, appServerPackage)
  const { createAppServerBridge, serve } = appServerPackage
  const bridge = createAppServerBridge()
  const { kernel, guardrails } = await harnessFromOptions(options, io, cwd, [bridge.plugin], { budgets })
  // A store shared by several processes (`--store postgres://…`) lets this server serve threads others own.
  const store = kernel.resolve('sessionStore') as SessionStore & { fleet?: () => FleetPort }
  const fleet = typeof store.fleet === 'function' ? store.fleet() : undefined
  try {
    const codexHome = codexSetup(cwd, options.codexHome, io.env).codexHome
    const server = await serve({
      listen,
      ...(auth ? { auth } : {}),
      harnessHome: resolve(io.cwd, io.env.HARNESS_HOME || join(io.env.HOME || homedir(), '.harness')),
      cwd: io.cwd,
      stdin: io.stdin,
      stdout: io.stdout,
      banner: (text) => io.stderr.write(text),
      kernel,
      bridge,
      log: (message) => io.stderr.write(`harness app-server: ${message}\n`),
      ...(timeout === undefined ? {} : { hostInputTimeoutMs: timeout }),
      ...(steerOnTurnEnd === undefined ? {} : { steerOnTurnEnd }),
      defaultPolicy: guardrails.policy,
      ...(fleet ? { fleet } : {}),
      // An approval with a rule (acceptWithExecpolicyAmendment) is kept where Codex keeps it: its default.rules.
      onRuleAmendment: (prefix) => {
        appendRuleAmendment({ codexHome, prefix })
      },
      listHooks: (cwds) =>
        cwds.map((dir): HooksListEntry => {
          const loaded = loadHooks(codexSetup(resolve(cwd, dir), options.codexHome, io.env), io.env)
          const hooks = loaded.handlers.map((handler) => {
            const { event: _event, ...metadata } = hookListEntry(handler)
            return metadata
          })
          return { cwd: dir, hooks, warnings: loaded.warnings, errors: [] }
        }),
    }).catch((error: unknown) => {
      // A listener that cannot start (the address or socket taken, a live server on it): Codex exits 1.
      throw error instanceof appServerPackage.DaemonSocketError || isSystemError(error)
        ? new CliError((error as Error).message, { exitCode: EXIT.failed, cause: error })
        : error
    })
    const signals = watchSignals((signal) => {
      void server.close(`interrupted by ${signal}`)
    }, io.stderr)
    try {
      await server.closed
      return EXIT.ok
    } finally {
      signals.stop()
    }
  } finally {
    await kernel.dispose()
  }
}

type AppServerPackage = typeof import('@harness-kernel/app-server')

/** `--listen` (or `--stdio`), parsed as Codex parses it: a bad URL is a usage error in Codex's words. */
function listenTarget(options: AppServerCommandOptions, appServerPackage: AppServerPackage): ListenTarget {
  const value = options.stdio ? 'stdio://' : (options.listen ?? 'stdio://')
  let target: ListenTarget
  try {
    target = appServerPackage.parseListenUrl(value)
  } catch (error) {
    if (!(error instanceof appServerPackage.ListenUrlError)) throw error
    throw new CliError(`invalid value '${value}' for '--listen <url>': ${error.message}`)
  }
  return target
}

/**
 * The WebSocket auth the flags ask for. As Codex: the flags are checked whatever the transport, `off` and a
 * non-loopback address without auth are refused, and every refusal here exits 1. Unlike Codex, a unix socket asks
 * for the token too when auth is configured.
 */
function listenAuth(
  options: AppServerCommandOptions,
  listen: ListenTarget,
  cwd: string,
  appServerPackage: AppServerPackage,
): WsAuth | undefined {
  const failed = (error: unknown) =>
    error instanceof appServerPackage.WsAuthError || error instanceof appServerPackage.NonLoopbackWithoutAuthError
      ? new CliError(error.message, { exitCode: EXIT.failed, cause: error })
      : error
  try {
    appServerPackage.checkWsAuthFlags(options)
    if (listen.transport === 'off') throw new CliError('no transport configured; use --listen', { exitCode: EXIT.failed })
    if (listen.transport === 'stdio') return undefined
    const auth = appServerPackage.loadWsAuth(options, cwd)
    if (listen.transport === 'ws') appServerPackage.checkLoopbackOrAuth({ ...listen, auth })
    return auth
  } catch (error) {
    throw failed(error)
  }
}

function isSystemError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string'
}
