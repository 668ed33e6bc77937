import type { HookRunRecord } from '@harness-kernel/kernel'

const camel = (name: string) => name.replace(/[-_](\w)/g, (_match, letter: string) => letter.toUpperCase())

/** A Codex `HookRunSummary` for a recorded `hook/run` (codex-hooks.md §9). */
export function hookRunSummary(run: HookRunRecord): Record<string, unknown> {
  const eventName = camel(run.event.charAt(0).toLowerCase() + run.event.slice(1))
  return {
    id: run.id,
    eventName,
    handlerType: 'command',
    executionMode: run.executionMode ?? 'sync',
    scope: run.scope ?? 'turn',
    source: run.source ?? null,
    sourcePath: run.sourcePath ?? null,
    displayOrder: run.displayOrder ?? 0,
    status: run.status,
    statusMessage: null,
    startedAt: run.startedAt ?? null,
    completedAt: run.completedAt ?? null,
    durationMs: run.durationMs,
    entries: run.entries ?? [],
  }
}
