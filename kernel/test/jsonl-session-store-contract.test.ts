import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { describeSessionStore } from '@harness-kernel/testing/session-store-contract'
import { JsonlSessionStore } from '../src/index.js'
import { tempDir } from './helpers.js'

/** A pid no process has any more: a child that already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid

describeSessionStore('JsonlSessionStore', {
  make: async () => ({ store: new JsonlSessionStore(tempDir()) }),
  // The lock file names a process that is gone, as after a SIGKILL.
  async makeStale(store, sessionId) {
    const path = store.pathFor(sessionId).replace(/\.jsonl$/, '.lock')
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), pid: deadPid() }))
  },
})
