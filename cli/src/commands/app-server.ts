import { resolve } from 'node:path'
import type { HooksListEntry } from '@harness-kernel/app-server'
import { appendRuleAmendment } from '@harness-kernel/codex'
import { CliError } from '../cli-error.js'
import { codexSetup, loadHooks } from '../codex/codex-setup.js'
import { EXIT } from '../exit-codes.js'
import type { CliIo } from '../io.js'
import { hookListEntry } from '../render/hook-list.js'
import { watchSignals } from '../signals.js'
import type { HarnessOptions } from './harness-flags.js'
import { checkDriverFlag, harnessFromOptions } from './harness-options.js'

export interface AppServerCommandOptions extends HarnessOptions {
  hostInputTimeout?: string
  steerOnTurnEnd?: string
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
  // Loaded here: `harness run` never needs the server.
  const { createAppServer, createAppServerBridge } = await import('@harness-kernel/app-server')
  const bridge = createAppServerBridge()
  const { kernel, guardrails } = await harnessFromOptions(options, io, cwd, [bridge.plugin])
  const codexHome = codexSetup(cwd, options.codexHome, io.env).codexHome
  const server = createAppServer({
    kernel,
    bridge,
    input: io.stdin,
    output: io.stdout,
    log: (message) => io.stderr.write(`harness app-server: ${message}\n`),
    ...(timeout === undefined ? {} : { hostInputTimeoutMs: timeout }),
    ...(steerOnTurnEnd === undefined ? {} : { steerOnTurnEnd }),
    defaultPolicy: guardrails.policy,
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
  })
  const signals = watchSignals((signal) => {
    void server.close(`interrupted by ${signal}`)
  }, io.stderr)
  try {
    await server.closed
    return EXIT.ok
  } finally {
    signals.stop()
    await kernel.dispose()
  }
}
