import { randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
// awilix's browser build is the same container without loadModules(), whose fast-glob (~75 CommonJS modules) the
// Node build loads at start-up; the kernel never scans for modules.
import { type AwilixContainer, asFunction, asValue, createContainer, InjectionMode, type Resolver } from 'awilix/browser'
import { type Budgets, checkedBudgets } from './budget/budget-types.js'
import { resolvePrices } from './cost/resolve-prices.js'
import { createStderrLogger, denyWithoutApprover, systemClock } from './defaults.js'
import { capabilityGaps } from './driver/capability-gaps.js'
import { nativeDriver } from './driver/native-driver.js'
import { DRIVER_SPEC, type Driver } from './driver/types.js'
import { errorMessage, type HookTapError, KernelError } from './errors.js'
import { DEFAULT_GUARDRAILS_POLICY } from './guardrails/policy.js'
import { createGuardrails } from './guardrails/session-guardrails.js'
import { createKernelHooks, type HookByName, type HookName, hookByName, type KernelHooks } from './hooks.js'
import type { KernelOptions, ResolvedKernelOptions } from './kernel-options.js'
import type { Disposer, KernelApi, Plugin, ProvideOptions, StartSubagentOptions } from './plugin.js'
import { ExecProcessRunner } from './process/exec-process-runner.js'
import { LauncherProcessRunner } from './process/launcher/launcher-process-runner.js'
import type { ProcessGroupRecord } from './process/process-ledger.js'
import { describeReap, reapProcessGroups } from './process/reap-process-groups.js'
import { SessionProcessGroups } from './process/session-process-groups.js'
import { bwrapSandbox } from './sandbox/bwrap-sandbox.js'
import type { ServiceKey, Services } from './services.js'
import { KernelSession } from './session.js'
import { JsonlSessionStore } from './session-log/jsonl-session-store.js'
import { SESSION_STORE_SPEC, type SessionLock, type SessionLog, type SessionStore } from './session-store.js'
import type { ParentLink, Session } from './session-types.js'
import { InProcessSteeringSource } from './steering/in-process-source.js'
import type { ToolDefinition } from './tool.js'
import { ToolRegistry } from './tool-registry.js'
import { uuidv7 } from './uuid-v7.js'

export interface StartSessionOptions {
  cwd?: string
  /** A session id of your own; default a random UUID. */
  id?: string
  /** This session's limits, over the kernel's `budgets` option (limit by limit). */
  budgets?: Budgets
}

export interface ResumeSessionOptions {
  cwd?: string
  /** This session's limits, over the kernel's `budgets` option (limit by limit). */
  budgets?: Budgets
}

export interface Kernel extends KernelApi {
  /** The plugins set up, in order (after `replaces`). */
  readonly plugins: readonly string[]
  /** Settles when every plugin's setup has finished (setups may be async). */
  readonly ready: Promise<void>
  startSession(options?: StartSessionOptions): Promise<Session>
  resumeSession(sessionId: string, options?: ResumeSessionOptions): Promise<Session>
  dispose(): Promise<void>
}

export function createKernel(plugins: readonly Plugin[], options: KernelOptions = {}): Kernel {
  const resolved = resolveOptions(options)
  const composition = compose(plugins)
  const container = createContainer<Services>({ injectionMode: InjectionMode.PROXY, strict: true })
  const tools = new ToolRegistry()
  const logger = createStderrLogger()
  let currentPlugin: string | undefined
  let open = true
  const reportTapError = (error: HookTapError) => resolveLogger().error(error.message)
  const resolveLogger = () => (container.hasRegistration('logger') ? container.resolve('logger') : logger)
  const hooks: KernelHooks = createKernelHooks({
    currentPlugin: () => currentPlugin,
    registrationOpen: () => open,
    onObserverError: (error) => reportTapError(error),
  })
  container.register({
    tools: asValue(tools),
    clock: asValue(systemClock),
    logger: asValue(logger),
    approvals: asValue(denyWithoutApprover),
    processRunner: asFunction(() =>
      options.processRunner === 'in-process'
        ? new ExecProcessRunner()
        : new LauncherProcessRunner({ onFallback: (reason) => resolveLogger().warn(reason) }),
    ).singleton(),
    sandbox: asFunction(() => bwrapSandbox()).singleton(),
    guardrails: asFunction(({ session, sandbox }: Services) =>
      createGuardrails({ policy: DEFAULT_GUARDRAILS_POLICY, sandbox, cwd: session.cwd }),
    ).scoped(),
    sessionStore: asFunction(({ clock }: Services) => new JsonlSessionStore(resolved.sessionsDir, clock)).singleton(),
    steering: asFunction(() => new InProcessSteeringSource()).scoped(),
    driver: asValue(nativeDriver()),
  } as never)

  const sessions = new Set<KernelSession>()
  /** Locks of the sessions this kernel opened and has not ended (nor lost to another process). */
  const locks = new Set<SessionLock>()
  const lockOf = new WeakMap<KernelSession, SessionLock>()
  /** Sessions being opened, and lost sessions being shut down: `dispose` waits for them, so none is left behind it. */
  const opening = new Set<Promise<unknown>>()
  const losing = new Set<Promise<void>>()
  const releaseLock = async (lock: SessionLock) => {
    locks.delete(lock)
    await lock.release()
  }
  /** Takes a session's lock before anything reads or writes its log; `open` runs under it, which releases it on failure. */
  const underLock = <T>(store: SessionStore, sessionId: string, open: (lock: SessionLock) => Promise<T>): Promise<T> => {
    const opened = (async () => {
      const lock = await store.lock(sessionId)
      locks.add(lock)
      try {
        return await open(lock)
      } catch (error) {
        await releaseLock(lock).catch((releaseError: unknown) =>
          resolveLogger().error(`could not release the lock of session ${sessionId}: ${errorMessage(releaseError)}`),
        )
        throw error
      }
    })()
    opening.add(opened)
    const forget = () => opening.delete(opened)
    opened.then(forget, forget)
    return opened
  }
  const disposers: { plugin: string; dispose: Disposer }[] = []
  let disposed = false

  const api: KernelApi = {
    hooks,
    hook: <N extends HookName>(name: N): HookByName<N> => hookByName(hooks, name),
    provide(key: string, value: unknown, provideOptions: ProvideOptions = {}) {
      const resolver =
        typeof value === 'function'
          ? asFunction(value as (...args: never[]) => unknown)[provideOptions.lifetime === 'kernel' ? 'singleton' : 'scoped']()
          : asValue(value)
      container.register(key, resolver as Resolver<unknown>)
    },
    resolve: <K extends ServiceKey>(key: K) => container.resolve(key) as Services[K],
    registerTool: <Input>(tool: ToolDefinition<Input>) => tools.register(tool),
    startSubagent: (subagentOptions: StartSubagentOptions) => startSubagent(subagentOptions),
    cwd: resolved.cwd,
    sessionsDir: resolved.sessionsDir,
  }

  const setupOne = (plugin: Plugin, result: ReturnType<Plugin['setup']>): Promise<void> | undefined => {
    // biome-ignore lint/suspicious/noConfusingVoidType: mirrors SetupResult
    const keep = (disposer: void | Disposer) => {
      if (typeof disposer === 'function') disposers.push({ plugin: plugin.name, dispose: disposer })
    }
    if (result instanceof Promise) return result.then(keep)
    keep(result)
    return undefined
  }
  const ready = (async () => {
    try {
      for (const plugin of composition) {
        currentPlugin = plugin.name
        let pending: Promise<void> | undefined
        try {
          pending = setupOne(plugin, plugin.setup(api))
          if (pending) await pending
        } catch (error) {
          throw new KernelError(`plugin "${plugin.name}" failed to set up: ${errorMessage(error)}`, { cause: error })
        }
      }
    } finally {
      currentPlugin = undefined
      open = false
    }
  })()
  ready.catch(() => {})

  /** The one gate for drivers: a known contract version, and a model when the driver samples the kernel's. */
  const checkedDriver = (): Driver => {
    const driver = container.resolve('driver')
    if (driver?.specificationVersion !== DRIVER_SPEC) {
      throw new KernelError(
        `driver "${driver?.id ?? '(unnamed)'}" implements driver specification ${JSON.stringify(driver?.specificationVersion)}; this kernel supports "${DRIVER_SPEC}"`,
      )
    }
    if (!/^[a-z0-9][a-z0-9-]*$/.test(driver.id)) {
      throw new KernelError(`driver id "${driver.id}" must be lowercase letters, digits and '-' (it names the driver's state folder)`)
    }
    if (driver.capabilities.model === 'kernel' && !container.hasRegistration('model')) {
      throw new KernelError(
        "no model provider: add a model plugin (scriptedModel(), openaiModel(), anthropicModel()) or call kernel.provide('model', provider)",
      )
    }
    return driver
  }

  /** The one gate for session stores: a store of this kernel's contract (`session-store-v2`). */
  const checkedStore = (): SessionStore => {
    const store = container.resolve('sessionStore')
    if (store?.specificationVersion !== SESSION_STORE_SPEC) {
      throw new KernelError(
        `session store implements specification ${JSON.stringify(store?.specificationVersion)}; this kernel supports "${SESSION_STORE_SPEC}" (a store written for the synchronous contract must make lock, create, load, reopen, list, summary, setName, setArchived and fork return promises)`,
      )
    }
    return store
  }

  /** A new log's session, or the log closed again when the session cannot be made (the kernel was disposed meanwhile). */
  const sessionOn = async (log: SessionLog, make: () => KernelSession): Promise<KernelSession> => {
    try {
      assertLive()
      return make()
    } catch (error) {
      await log.close().catch(() => {})
      throw error
    }
  }

  const newSession = (
    id: string,
    cwd: string,
    log: SessionLog,
    lock: SessionLock,
    driver: Driver,
    budgets: Budgets,
    parent?: ParentLink,
  ): KernelSession => {
    const processGroups = new SessionProcessGroups(container.resolve('sessionStore').processLedger(id))
    const scope: AwilixContainer<Services> = container.createScope()
    let model: Services['model'] | undefined
    const session: KernelSession = new KernelSession({
      id,
      cwd,
      log,
      hooks,
      options: resolved,
      model: () => {
        model ??= scope.resolve('model')
        return model
      },
      compactor: () => (scope.hasRegistration('compactor') ? scope.resolve('compactor') : undefined),
      driver,
      driverStateDir: join(resolved.sessionsDir, 'drivers', driver.id, id),
      tools,
      approvals: scope.resolve('approvals'),
      processRunner: processGroups.runner(scope.resolve('processRunner')),
      killProcessGroups: () => processGroups.killRunning(),
      guardrails: () => scope.resolve('guardrails'),
      logger: scope.resolve('logger'),
      reportTapError,
      budgets,
      ...(parent === undefined ? {} : { parent }),
      onEnd: async (ended) => {
        sessions.delete(ended)
        // A lost session's lock is another process's now: never released from here.
        if (ended.lost === undefined) await releaseLock(lock)
        await scope.dispose()
      },
    })
    lockOf.set(session, lock)
    log.onLost((error) => {
      locks.delete(lock)
      const shutdown = session
        .lose(error)
        .catch((failure: unknown) =>
          resolveLogger().error(`session ${id}: ending it after its log was lost failed: ${errorMessage(failure)}`),
        )
      losing.add(shutdown)
      void shutdown.then(() => losing.delete(shutdown))
    })
    scope.register({ session: asValue(session) } as never)
    session.attachSteering(scope.resolve('steering'))
    sessions.add(session)
    return session
  }

  /**
   * A session that failed after its lock was taken (its crash repair, a SessionStart tap, the store) is ended before
   * the error goes on: a lock left held would keep every process, this one included, from the session for good.
   */
  const endFailedOpen = async (session: KernelSession, error: unknown): Promise<never> => {
    try {
      await session.end('failed to open')
    } catch (endError) {
      resolveLogger().error(`session ${session.id} did not end cleanly after failing to open: ${errorMessage(endError)}`)
      const lock = lockOf.get(session)
      if (lock) await releaseLock(lock).catch(() => {})
    }
    throw error
  }

  const noticeTakeover = (session: KernelSession) => {
    const lock = lockOf.get(session)
    const holder = lock?.tookOver
    if (lock === undefined || holder === undefined) return
    session.notice(
      'warning',
      lock.epoch === undefined
        ? `took over the stale lock of session ${session.id} (${lock.path}): pid ${holder.pid} on ${holder.host}, which took it at ${holder.since}, is no longer running`
        : // A lease runs out when its holder stops renewing it: it may have died, or only stalled (it is fenced off either way).
          `took over session ${session.id} (${lock.path}) at epoch ${lock.epoch}: the lease of pid ${holder.pid} on ${holder.host}, which took it at ${holder.since}, ran out`,
      'kernel',
    )
  }

  /** Kills what a previous kernel of the session left running (before this one starts anything), and says so. */
  const reapLeftovers = async (session: KernelSession, unfinished: ProcessGroupRecord[]) => {
    if (unfinished.length === 0) return
    const lines = describeReap(await reapProcessGroups(unfinished))
    await container.resolve('sessionStore').processLedger(session.id).clear()
    if (lines.length > 0)
      session.notice('warning', `a previous kernel of session ${session.id} left processes running: ${lines.join('; ')}`, 'kernel')
  }

  async function startSubagent({ parent, agent, turnId, callId, cwd }: StartSubagentOptions): Promise<Session> {
    await ready
    assertLive()
    const owner = [...sessions].find((session) => session === parent)
    if (owner === undefined || owner.closing) {
      throw new KernelError(`startSubagent: session ${parent?.id} is not an open session of this kernel`)
    }
    if (typeof agent?.type !== 'string' || agent.type === '') throw new KernelError('startSubagent: agent.type must be a non-empty string')
    const driver = checkedDriver()
    const store = checkedStore()
    const id = uuidv7()
    const link: ParentLink = { session: owner, agent: { id: agent.id ?? id, type: agent.type }, turnId, callId }
    const childCwd = resolve(owner.cwd, cwd ?? '.')
    const child = await underLock(store, id, async (lock) => {
      const log = await store.create(id, lock)
      return sessionOn(log, () => newSession(id, childCwd, log, lock, driver, resolved.budgets, link))
    })
    const where = { ...(turnId === undefined ? {} : { turnId }), ...(callId === undefined ? {} : { callId }) }
    child.append({
      type: 'session/start',
      sessionId: id,
      cwd: childCwd,
      createdAt: new Date(container.resolve('clock').now()).toISOString(),
      parent: { sessionId: owner.id, agentId: link.agent.id, agentType: link.agent.type, ...where },
    })
    if (owner.closing || owner.lost !== undefined) {
      // The parent began to end (or lost its log) while the subagent's log was opened: it starts none.
      await child.end('parent ended')
      throw new KernelError(`startSubagent: session ${owner.id} ended while its subagent was starting`)
    }
    owner.append({
      type: 'subagent/start',
      ...where,
      agentId: link.agent.id,
      agentType: link.agent.type,
      sessionId: id,
      transcriptPath: child.transcriptPath,
    })
    // A subagent runs under the policy its parent runs under now, as Codex's do.
    child.guardrails.setPolicy(owner.guardrails.policy)
    owner.adoptChild(child)
    return child
  }

  const noticeGaps = (session: KernelSession) => {
    for (const gap of capabilityGaps(session.driver, hooks, session.steeringSources)) session.notice('warning', gap, 'kernel')
  }

  const fireSessionStart = async (session: KernelSession, source: 'startup' | 'resume') => {
    const controller = new AbortController()
    await hooks.sessionStart.promise({
      session,
      source,
      signal: controller.signal,
      halt: (halt) => {
        session.pending.halt = halt
      },
    })
  }

  return {
    ...api,
    plugins: composition.map((plugin) => plugin.name),
    ready,
    async startSession(sessionOptions: StartSessionOptions = {}) {
      await ready
      assertLive()
      const driver = checkedDriver()
      const store = checkedStore()
      const id = sessionOptions.id ?? randomUUID()
      const cwd = resolve(resolved.cwd, sessionOptions.cwd ?? '.')
      const budgets = checkedBudgets(resolved.budgets, sessionOptions.budgets, 'startSession: budgets')
      const session = await underLock(store, id, async (lock) => {
        const log = await store.create(id, lock)
        return sessionOn(log, () => newSession(id, cwd, log, lock, driver, budgets))
      })
      try {
        session.append({ type: 'session/start', sessionId: id, cwd, createdAt: new Date(container.resolve('clock').now()).toISOString() })
        noticeTakeover(session)
        noticeGaps(session)
        await fireSessionStart(session, 'startup')
      } catch (error) {
        return endFailedOpen(session, error)
      }
      return session
    },
    async resumeSession(sessionId: string, resumeOptions: ResumeSessionOptions = {}) {
      await ready
      assertLive()
      const driver = checkedDriver()
      const store = checkedStore()
      const budgets = checkedBudgets(resolved.budgets, resumeOptions.budgets, 'resumeSession: budgets')
      // Locked first: a session open elsewhere is refused before its log is read, written or repaired.
      const { session, loaded, unfinished } = await underLock(store, sessionId, async (lock) => {
        const unfinished = await store.processLedger(sessionId).unfinished()
        const loaded = await store.load(sessionId)
        const start = loaded.events.find((event) => event.type === 'session/start')
        const cwd = resolve(resolved.cwd, resumeOptions.cwd ?? (start?.type === 'session/start' ? start.cwd : '.'))
        const lastSeq = loaded.events.at(-1)?.seq ?? 0
        const log = await store.reopen(sessionId, lastSeq, lock)
        return { session: await sessionOn(log, () => newSession(sessionId, cwd, log, lock, driver, budgets)), loaded, unfinished }
      })
      try {
        session.replay(loaded.events)
        noticeTakeover(session)
        if (loaded.droppedTail !== undefined) {
          session.notice(
            'warning',
            `dropped a torn last line of ${store.pathFor(sessionId)} (${loaded.droppedTail.length} chars)`,
            'kernel',
          )
        }
        await reapLeftovers(session, unfinished)
        session.repairAfterCrash()
        session.append({ type: 'session/resume', sessionId })
        noticeGaps(session)
        await fireSessionStart(session, 'resume')
      } catch (error) {
        return endFailedOpen(session, error)
      }
      return session
    },
    async dispose() {
      if (disposed) return
      disposed = true
      await ready.catch(() => {})
      await Promise.allSettled([...opening, ...losing])
      try {
        for (const session of [...sessions]) await session.end('dispose')
      } finally {
        await Promise.allSettled([...locks].map((lock) => releaseLock(lock)))
      }
      for (const { plugin, dispose } of disposers.reverse()) {
        try {
          await dispose()
        } catch (error) {
          resolveLogger().error(`plugin "${plugin}" failed to dispose: ${errorMessage(error)}`)
        }
      }
      await container.dispose()
    },
  }

  function assertLive() {
    if (disposed) throw new KernelError('the kernel has been disposed')
  }
}

function resolveOptions(options: KernelOptions): ResolvedKernelOptions {
  const cwd = resolve(options.cwd ?? process.cwd())
  const maxStopContinuations = options.maxStopContinuations ?? 8
  if (!(maxStopContinuations >= 0))
    throw new KernelError(`maxStopContinuations must be a number >= 0 (or Infinity), got ${maxStopContinuations}`)
  return {
    cwd,
    sessionsDir: resolve(cwd, options.sessionsDir ?? '.harness/sessions'),
    system: options.system,
    maxStopContinuations,
    modelRetry: {
      maxAttempts: options.modelRetry?.maxAttempts ?? 4,
      initialDelayMs: options.modelRetry?.initialDelayMs ?? 250,
      maxDelayMs: options.modelRetry?.maxDelayMs ?? 4000,
      maxRetryAfterMs: options.modelRetry?.maxRetryAfterMs ?? 60_000,
    },
    fsync: options.fsync ?? 'steering',
    maxToolOutputBytes: positiveInteger(options.maxToolOutputBytes ?? 4 * 1024 * 1024, 'maxToolOutputBytes'),
    prices: resolvePrices(options.prices),
    budgets: checkedBudgets(options.budgets, undefined, 'budgets'),
  }
}

function positiveInteger(value: number, name: string): number {
  if (!(Number.isInteger(value) && value > 0)) throw new KernelError(`${name} must be a whole number > 0, got ${value}`)
  return value
}

/** Applies `replaces` and checks that names are unique. */
function compose(plugins: readonly Plugin[]): Plugin[] {
  const seen = new Map<string, number>()
  for (const [index, plugin] of plugins.entries()) {
    if (!plugin || typeof plugin.name !== 'string' || typeof plugin.setup !== 'function') {
      throw new KernelError(`createKernel: item ${index} is not a plugin (expected { name, setup }); wrap it with definePlugin()`)
    }
    const earlier = seen.get(plugin.name)
    if (earlier !== undefined) {
      throw new KernelError(
        `createKernel: duplicate plugin name "${plugin.name}" (items ${earlier} and ${index}); plugin names must be unique`,
      )
    }
    seen.set(plugin.name, index)
  }
  for (const plugin of plugins) {
    const missing = (plugin.replaces ?? []).filter((name) => !seen.has(name))
    if (missing.length > 0) {
      throw new KernelError(
        `createKernel: plugin "${plugin.name}" replaces ${missing.map((name) => `"${name}"`).join(', ')}, which is not in the composition (its plugins: ${[...seen.keys()].join(', ')})`,
      )
    }
  }
  const replaced = new Set(plugins.flatMap((plugin) => plugin.replaces ?? []))
  return plugins.filter((plugin) => !replaced.has(plugin.name))
}
