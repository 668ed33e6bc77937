import { describe, expect, it } from 'vitest'
import { createKernel, KernelError } from '../src/index.js'
import { echoModel, plugin, tempDir } from './helpers.js'

/** A kernel whose `sessionStore` is `store` (a store of another contract: only its declaration matters here). */
function kernelWithStore(store: object) {
  return createKernel(
    [
      plugin('other-store', (api) => {
        api.provide('sessionStore', store)
        api.provide('model', echoModel)
      }),
    ],
    { cwd: tempDir() },
  )
}

const HINT =
  'this kernel supports "session-store-v2" (a store written for the synchronous contract must make lock, create, load, reopen, list, summary, setName, setArchived and fork return promises)'

describe('the session store gate', () => {
  it('refuses a store that declares no specification when a session starts or resumes, before using it', async () => {
    const used: string[] = []
    const kernel = kernelWithStore({
      pathFor: (id: string) => id,
      lock: (id: string) => used.push(`lock ${id}`),
    })
    await expect(kernel.startSession({ id: 's' })).rejects.toThrow(KernelError)
    await expect(kernel.startSession({ id: 's' })).rejects.toThrow(`session store implements specification undefined; ${HINT}`)
    await expect(kernel.resumeSession('s')).rejects.toThrow(`session store implements specification undefined; ${HINT}`)
    expect(used).toEqual([])
    await kernel.dispose()
  })

  it('names the specification a store of another version declares', async () => {
    const kernel = kernelWithStore({ specificationVersion: 'session-store-v1' })
    await expect(kernel.startSession()).rejects.toThrow(`session store implements specification "session-store-v1"; ${HINT}`)
    await kernel.dispose()
  })
})
