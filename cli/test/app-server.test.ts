import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppServerClient } from '@harness-kernel/app-server'
import { afterEach, expect, it } from 'vitest'
import { codexSchema } from '../../transports/app-server/test/support/codex-schema.js'
import { BIN, project } from './support.js'

const clients: AppServerClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  // Every message the server sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
  expect(codexSchema.take()).toEqual([])
})

it('harness app-server serves a turn over stdio and asks the host for input at the final boundary', async () => {
  const dir = project({
    'script.yaml': ['- text: first answer', '- text: answer with the host input'].join('\n'),
  })
  const homes = mkdtempSync(join(tmpdir(), 'harness-app-server-homes-'))
  const client = AppServerClient.spawn(process.execPath, [BIN, 'app-server', '--model', 'scripted:script.yaml'], {
    cwd: dir,
    env: { ...process.env, CODEX_HOME: homes, HARNESS_HOME: homes },
    stderr: 'pipe',
    onReceive: codexSchema.onReceive,
    onHostInput: ({ boundary }) => ({
      items:
        boundary.kind === 'final' && asked++ === 0
          ? [{ role: 'user', authority: 'user', content: [{ type: 'text', text: 'also this' }] }]
          : [],
    }),
  })
  clients.push(client)
  let asked = 0
  await client.initialize({ hostInput: {} })
  const { thread } = await client.startThread()
  const { turn } = await client.startTurn(thread.id, 'hello')
  const completed = await client.turnCompleted(thread.id, turn.id)
  expect(completed.turn.status).toBe('completed')
  const texts = client.notifications
    .filter((entry) => entry.method === 'item/completed')
    .map((entry) => entry.params.item as { type: string; text?: string })
    .filter((item) => item.type === 'agentMessage')
    .map((item) => item.text)
  expect(texts).toEqual(['first answer', 'answer with the host input'])
}, 30_000)

it('harness app-server: a Claude Code ask becomes the Codex approval request for the tool kind, and the client decides', async () => {
  const dir = project({
    'script.yaml': [
      '- tool_calls: [{ name: write_file, input: { path: accepted.txt, content: yes } }]',
      '- text: first',
      '- tool_calls: [{ name: write_file, input: { path: declined.txt, content: no } }]',
      '- text: second',
    ].join('\n'),
    '.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'default' } }),
  })
  const homes = mkdtempSync(join(tmpdir(), 'harness-app-server-homes-'))
  const decisions = ['accept', 'decline']
  const asked: { method: string; params: Record<string, unknown> }[] = []
  const client = AppServerClient.spawn(process.execPath, [BIN, 'app-server', '--model', 'scripted:script.yaml'], {
    cwd: dir,
    env: { ...process.env, CODEX_HOME: homes, HARNESS_HOME: homes, CLAUDE_CONFIG_DIR: homes },
    stderr: 'pipe',
    onReceive: codexSchema.onReceive,
    onApproval: (params, _id, method) => {
      asked.push({ method, params })
      return { decision: decisions.shift() }
    },
  })
  clients.push(client)
  await client.initialize()
  const { thread } = await client.startThread()
  for (const text of ['one', 'two']) {
    const { turn } = await client.startTurn(thread.id, text)
    expect((await client.turnCompleted(thread.id, turn.id)).turn.status).toBe('completed')
  }
  expect(asked.map((request) => [request.method, request.params.reason])).toEqual([
    [
      'item/fileChange/requestApproval',
      `Claude requested permissions to write to ${join(dir, 'accepted.txt')}, but you haven't granted it yet.`,
    ],
    [
      'item/fileChange/requestApproval',
      `Claude requested permissions to write to ${join(dir, 'declined.txt')}, but you haven't granted it yet.`,
    ],
  ])
  expect(readFileSync(join(dir, 'accepted.txt'), 'utf8')).toBe('yes')
  expect(existsSync(join(dir, 'declined.txt'))).toBe(false)
}, 30_000)
