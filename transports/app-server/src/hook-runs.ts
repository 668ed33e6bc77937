import type { HookRunRecord } from '@harness-kernel/kernel'

const camel = (name: string) => name.replace(/[-_](\w)/g, (_match, letter: string) => letter.toUpperCase())

/** Codex's `HookSource` values; a dialect's other sources show as `unknown`. */
const SOURCES = new Set([
  'system',
  'user',
  'project',
  'mdm',
  'sessionFlags',
  'plugin',
  'cloudRequirements',
  'cloudManagedConfig',
  'legacyManagedConfigFile',
  'legacyManagedConfigMdm',
])

/**
 * A Codex `HookRunSummary` for a recorded `hook/run` (codex-hooks.md §9). A run recorded without Codex's facts gets
 * its neutral values: `source: "unknown"`, `sourcePath: ""`, `startedAt` from when it was recorded (`atMs`).
 */
export function hookRunSummary(run: HookRunRecord, atMs = Date.now()): Record<string, unknown> {
  const eventName = camel(run.event.charAt(0).toLowerCase() + run.event.slice(1))
  return {
    id: run.id,
    eventName,
    handlerType: 'command',
    executionMode: run.executionMode ?? 'sync',
    scope: run.scope ?? 'turn',
    source: run.source !== undefined && SOURCES.has(run.source) ? run.source : 'unknown',
    sourcePath: run.sourcePath ?? '',
    displayOrder: run.displayOrder ?? 0,
    status: run.status,
    statusMessage: null,
    startedAt: run.startedAt ?? Math.floor((atMs - run.durationMs) / 1000),
    completedAt: run.completedAt ?? null,
    durationMs: run.durationMs,
    entries: run.entries ?? [],
  }
}
