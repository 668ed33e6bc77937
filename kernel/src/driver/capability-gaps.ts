import { type KernelHooks, pluginsTapping } from '../hooks.js'
import type { SteeringSource } from '../steering/types.js'
import { DRIVER_POINTS, type Driver } from './types.js'

/**
 * What the composition relies on that the driver never does: a tapped point it does not fire, a
 * steering source's boundary it does not have. One sentence each, for a notice at session start.
 */
export function capabilityGaps(driver: Driver, hooks: KernelHooks, sources: readonly SteeringSource[]): string[] {
  const gaps: string[] = []
  for (const point of DRIVER_POINTS) {
    if (driver.capabilities.points[point] !== undefined) continue
    for (const plugin of pluginsTapping(hooks, point)) {
      gaps.push(`plugin "${plugin}" taps ${point}, which the ${driver.id} driver never fires: that tap will not run`)
    }
  }
  const has = ['turn start', ...driver.capabilities.boundaries].join(', ')
  for (const source of sources) {
    const missing = (source.boundaries ?? []).filter((kind) => !driver.capabilities.boundaries.includes(kind))
    if (missing.length === 0) continue
    gaps.push(
      `steering source "${source.transport ?? 'host'}" expects ${missing.join(' and ')} boundaries, which the ${driver.id} driver does not have (it claims at: ${has}); its input waits for those it has`,
    )
  }
  return gaps
}
