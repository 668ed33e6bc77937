import { freeLoopbackPort, type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harness, project } from './support.js'

let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
})
afterAll(async () => {
  await server?.stop()
})

describe('--store and HARNESS_STORE', () => {
  it('runs and lists sessions in PostgreSQL; the sessions commands read them there', async () => {
    const cwd = project({ 'short.yaml': '- text: kept in the database\n' })
    const run = await harness(['run', 'remember me', '--model', 'scripted:short.yaml', '--json', '--store', server.url], { cwd })
    expect(run.code).toBe(0)
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string }

    const listed = await harness(['sessions', 'list', '--json'], { cwd, env: { HARNESS_STORE: server.url } })
    expect(listed.code).toBe(0)
    const summaries = JSON.parse(listed.stdout) as { id: string; path: string; firstPrompt: string }[]
    const summary = summaries.find((entry) => entry.id === sessionId)
    expect(summary).toMatchObject({
      firstPrompt: 'remember me',
      path: `postgres://postgres@127.0.0.1:${server.port}/postgres#harness.thread=${sessionId}`,
    })
    // The JSONL folder of the project was never written.
    const files = await harness(['sessions', 'list'], { cwd })
    expect(files.stdout).toMatch(/^no sessions in /)

    const shown = await harness(['sessions', 'show', sessionId.slice(0, 8), '--store', server.url], { cwd })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('assistant:\n  kept in the database')
  })

  it('a database it cannot reach stops the command, naming it without the password', async () => {
    const port = await freeLoopbackPort()
    const url = `postgres://someone:hunter2@127.0.0.1:${port}/nowhere`
    const result = await harness(['sessions', 'list', '--store', url], { cwd: project() })
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(`--store: cannot reach PostgreSQL at postgres://someone@127.0.0.1:${port}/nowhere (no password): `)
    expect(result.stderr).toContain('ECONNREFUSED')
    expect(result.stderr + result.stdout).not.toContain('hunter2')
    const fromEnv = await harness(['sessions', 'list'], { cwd: project(), env: { HARNESS_STORE: url } })
    expect(fromEnv.stderr).toContain('HARNESS_STORE: cannot reach PostgreSQL at ')
  })

  it('a store it does not know is refused with what it takes', async () => {
    const result = await harness(['sessions', 'list', '--store', 'mysql://root:pw@localhost/db'], { cwd: project() })
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(
      '--store: unknown session store "mysql://root@localhost/db": use postgres://USER:PASSWORD@HOST:PORT/DATABASE',
    )
    expect(result.stderr).not.toContain(':pw@')
  })
})
