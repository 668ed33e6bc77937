import type { Plugin } from '@harness-kernel/kernel'
import { errorMessage } from '@harness-kernel/kernel'
import { CliError } from './cli-error.js'
import { STORE_USAGE } from './store-usage.js'

const POSTGRES = /^postgres(?:ql)?:\/\//i

/**
 * The plugin that provides the `sessionStore` a spec names, connected before the harness is composed: a database that
 * cannot be reached stops the command with its address (no password) and the cause. The store package and `pg` are
 * loaded only here, when a spec is given.
 */
export async function sessionStorePlugin(spec: string, source: string): Promise<{ plugin: Plugin; address: string }> {
  if (!POSTGRES.test(spec)) throw new CliError(`${source}: unknown session store "${redacted(spec)}": use ${STORE_USAGE}`)
  const { postgresStore } = await import('@harness-kernel/store-postgres')
  let store: ReturnType<typeof postgresStore>
  try {
    store = postgresStore(spec)
  } catch (error) {
    throw new CliError(`${source}: ${errorMessage(error)}`, { cause: error })
  }
  try {
    await store.connect()
  } catch (error) {
    await store.close().catch(() => {})
    throw new CliError(`${source}: ${errorMessage(error)}`, { cause: error })
  }
  const plugin: Plugin = {
    name: 'session-store',
    setup(kernel) {
      kernel.provide('sessionStore', store)
      return () => store.close()
    },
  }
  return { plugin, address: `${store.address} (schema ${store.schema})` }
}

/** A spec as messages may show it: without a password. */
function redacted(spec: string): string {
  return spec.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1@')
}
