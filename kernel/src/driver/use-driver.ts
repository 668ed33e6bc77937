import { definePlugin, type Plugin } from '../plugin.js'
import type { Driver } from './types.js'

/** A plugin that makes `driver` the kernel's `driver` service (named `driver`, so only one is composed). */
export function useDriver(driver: Driver): Plugin {
  return definePlugin({
    name: 'driver',
    setup(kernel) {
      kernel.provide('driver', driver)
    },
  })
}
