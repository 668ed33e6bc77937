import { AsyncParallelHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable'
import type { z } from 'zod'
import {
  type BudgetDecision,
  budgetDecisionSchema,
  type CompactDecision,
  compactDecisionSchema,
  type PermissionDecision,
  type PostToolDecision,
  type PreStepDecision,
  type PreToolDecision,
  permissionDecisionSchema,
  postToolDecisionSchema,
  preStepDecisionSchema,
  preToolDecisionSchema,
  type StopDecision,
  stopDecisionSchema,
} from './decisions.js'
import { errorMessage, HookTapError, KernelError } from './errors.js'
import { compileGuardedWaterfall, type GuardedTap } from './guarded-waterfall.js'
import type { ModelRequest } from './model.js'
import { modelRequestSchema } from './model-request-schema.js'
import type {
  BudgetPayload,
  CompactPayload,
  InterruptPayload,
  ModelDeltaPayload,
  ModelRequestPayload,
  ModelResponsePayload,
  NoticePayload,
  PermissionPayload,
  PreStepPayload,
  SessionEndPayload,
  SessionEventPayload,
  SessionStartPayload,
  StopPayload,
  SubagentPayload,
  ToolCallPayload,
  ToolOutputPayload,
  ToolResultPayload,
} from './session-types.js'

export interface KernelHooks {
  readonly sessionStart: AsyncParallelHook<[SessionStartPayload]>
  readonly sessionEnd: AsyncParallelHook<[SessionEndPayload]>
  readonly preStep: AsyncSeriesWaterfallHook<[PreStepDecision, PreStepPayload]>
  readonly modelRequest: AsyncSeriesWaterfallHook<[ModelRequest, ModelRequestPayload]>
  readonly modelResponse: AsyncParallelHook<[ModelResponsePayload]>
  readonly toolPreExecute: AsyncSeriesWaterfallHook<[PreToolDecision, ToolCallPayload]>
  readonly toolPermissionRequest: AsyncSeriesWaterfallHook<[PermissionDecision, PermissionPayload]>
  readonly toolPostExecute: AsyncSeriesWaterfallHook<[PostToolDecision, ToolResultPayload]>
  readonly turnStopping: AsyncSeriesWaterfallHook<[StopDecision, StopPayload]>
  readonly preCompact: AsyncSeriesWaterfallHook<[CompactDecision, CompactPayload]>
  readonly postCompact: AsyncParallelHook<[CompactPayload]>
  readonly subagentStart: AsyncParallelHook<[SubagentPayload]>
  readonly subagentStop: AsyncSeriesWaterfallHook<[StopDecision, SubagentPayload & StopPayload]>
  readonly interrupt: AsyncParallelHook<[InterruptPayload]>
  readonly notice: SyncHook<[NoticePayload]>
  readonly sessionEvent: SyncHook<[SessionEventPayload]>
  readonly modelDelta: SyncHook<[ModelDeltaPayload]>
  readonly toolOutput: SyncHook<[ToolOutputPayload]>
  readonly budgetReached: AsyncSeriesWaterfallHook<[BudgetDecision, BudgetPayload]>
}

/** Canonical names (`kernel.hook('tools/pre-execute')`) and the property each one is on. */
export const HOOK_NAMES = {
  'agent/session-start': 'sessionStart',
  'agent/session-end': 'sessionEnd',
  'agent/pre-step': 'preStep',
  'model/request': 'modelRequest',
  'model/response': 'modelResponse',
  'tools/pre-execute': 'toolPreExecute',
  'tools/permission-request': 'toolPermissionRequest',
  'tools/post-execute': 'toolPostExecute',
  'agent/turn-stopping': 'turnStopping',
  'agent/pre-compact': 'preCompact',
  'agent/post-compact': 'postCompact',
  'agent/subagent-start': 'subagentStart',
  'agent/subagent-stop': 'subagentStop',
  'agent/interrupt': 'interrupt',
  'agent/notice': 'notice',
  'session/event': 'sessionEvent',
  'model/delta': 'modelDelta',
  'tools/output': 'toolOutput',
  'agent/budget-reached': 'budgetReached',
} as const satisfies Record<string, keyof KernelHooks>

export type HookName = keyof typeof HOOK_NAMES
export type HookByName<N extends HookName> = KernelHooks[(typeof HOOK_NAMES)[N]]

export interface HookGuardContext {
  /** The plugin whose `setup` is running, used to attribute taps. */
  currentPlugin(): string | undefined
  /** False once setup is over: taps are registered at setup, never per turn. */
  registrationOpen(): boolean
  /** Where errors of observer taps (SyncHook) go; they never break the loop. */
  onObserverError(error: HookTapError): void
}

interface AnyTap {
  type: 'sync' | 'async' | 'promise'
  name: string
  fn: (...args: unknown[]) => unknown
}

type Fn = (...args: unknown[]) => unknown

const tapOwners = new WeakMap<KernelHooks, Map<HookName, string[]>>()

/**
 * The plugins that tapped a point, in registration order (each once). Taps registered with
 * `{ rendersOnly: true }` are left out: they only render requests, which a driver that builds its own
 * requests does differently (so their absence is no gap). So are taps registered with `{ reportsOwnGaps: true }`:
 * their plugin knows, once a session starts, whether they would do anything, and says so itself.
 */
export function pluginsTapping(hooks: KernelHooks, name: HookName): readonly string[] {
  return tapOwners.get(hooks)?.get(name) ?? []
}

export function createKernelHooks(guard: HookGuardContext): KernelHooks {
  const hooks: KernelHooks = {
    sessionStart: new AsyncParallelHook(['payload'], 'agent/session-start'),
    sessionEnd: new AsyncParallelHook(['payload'], 'agent/session-end'),
    preStep: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'agent/pre-step'),
    modelRequest: new AsyncSeriesWaterfallHook(['request', 'payload'], 'model/request'),
    modelResponse: new AsyncParallelHook(['payload'], 'model/response'),
    toolPreExecute: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'tools/pre-execute'),
    toolPermissionRequest: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'tools/permission-request'),
    toolPostExecute: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'tools/post-execute'),
    turnStopping: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'agent/turn-stopping'),
    preCompact: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'agent/pre-compact'),
    postCompact: new AsyncParallelHook(['payload'], 'agent/post-compact'),
    subagentStart: new AsyncParallelHook(['payload'], 'agent/subagent-start'),
    subagentStop: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'agent/subagent-stop'),
    interrupt: new AsyncParallelHook(['payload'], 'agent/interrupt'),
    notice: new SyncHook(['payload'], 'agent/notice'),
    sessionEvent: new SyncHook(['payload'], 'session/event'),
    modelDelta: new SyncHook(['payload'], 'model/delta'),
    toolOutput: new SyncHook(['payload'], 'tools/output'),
    budgetReached: new AsyncSeriesWaterfallHook(['decision', 'payload'], 'agent/budget-reached'),
  }
  const decisions: Partial<Record<keyof KernelHooks, z.ZodType>> = {
    preStep: preStepDecisionSchema,
    modelRequest: modelRequestSchema,
    toolPreExecute: preToolDecisionSchema,
    toolPermissionRequest: permissionDecisionSchema,
    toolPostExecute: postToolDecisionSchema,
    turnStopping: stopDecisionSchema,
    preCompact: compactDecisionSchema,
    subagentStop: stopDecisionSchema,
    budgetReached: budgetDecisionSchema,
  }
  const owners = new Map<HookName, string[]>()
  for (const [name, key] of Object.entries(HOOK_NAMES) as [HookName, keyof KernelHooks][]) {
    const hook = hooks[key] as unknown as {
      intercept(i: { register(tap: AnyTap): AnyTap }): void
      compile(options: unknown): unknown
    }
    const schema = decisions[key]
    const observer = key === 'notice' || key === 'sessionEvent' || key === 'modelDelta' || key === 'toolOutput'
    if (schema) hook.compile = (options) => compileGuardedWaterfall(name, schema, options as Parameters<typeof compileGuardedWaterfall>[2])
    hook.intercept({
      register(tap) {
        if (!guard.registrationOpen()) {
          throw new KernelError(
            `tap "${tap.name}" on ${name} was registered after setup: hooks are registered in a plugin's setup, never per turn`,
          )
        }
        const plugin = guard.currentPlugin() ?? tap.name
        // A tap marked `rendersOnly` shapes what the native loop sends; a driver that builds its own requests needs none.
        const tappers = owners.get(name) ?? []
        const { rendersOnly, reportsOwnGaps } = tap as { rendersOnly?: boolean; reportsOwnGaps?: boolean }
        if (!rendersOnly && !reportsOwnGaps && !tappers.includes(plugin)) owners.set(name, [...tappers, plugin])
        const attribute = (error: unknown) =>
          error instanceof HookTapError
            ? error
            : new HookTapError({ hook: name, plugin, tap: tap.name, message: errorMessage(error), cause: error })
        if (schema) (tap as unknown as GuardedTap).attribute = attribute
        else if (observer) tap.fn = isolateObserverTap(tap.fn, attribute, guard.onObserverError)
        else tap.fn = attributeTap(tap, attribute)
        return tap
      },
    })
  }
  const frozen = Object.freeze(hooks)
  tapOwners.set(frozen, owners)
  return frozen
}

function attributeTap(tap: AnyTap, attribute: (error: unknown) => HookTapError): Fn {
  const fn = tap.fn
  if (tap.type === 'promise') {
    return (...args) => {
      try {
        return Promise.resolve(fn(...args)).catch((error) => {
          throw attribute(error)
        })
      } catch (error) {
        return Promise.reject(attribute(error))
      }
    }
  }
  if (tap.type === 'async') {
    return (...args) => {
      const done = args.pop() as (error?: unknown) => void
      try {
        fn(...args, (error: unknown) => (error ? done(attribute(error)) : done()))
      } catch (error) {
        done(attribute(error))
      }
    }
  }
  return (...args) => {
    try {
      return fn(...args)
    } catch (error) {
      throw attribute(error)
    }
  }
}

/** Observer hooks take one argument (their payload), and tapable's compiled call passes exactly that: no rest array per event. */
function isolateObserverTap(fn: Fn, attribute: (error: unknown) => HookTapError, report: (error: HookTapError) => void): Fn {
  return (payload) => {
    try {
      fn(payload)
    } catch (error) {
      report(attribute(error))
    }
  }
}

export function hookByName<N extends HookName>(hooks: KernelHooks, name: N): HookByName<N> {
  const key = HOOK_NAMES[name]
  if (!key) throw new KernelError(`unknown hook "${String(name)}"; known hooks: ${Object.keys(HOOK_NAMES).join(', ')}`)
  return hooks[key] as HookByName<N>
}
