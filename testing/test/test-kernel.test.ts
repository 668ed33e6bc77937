import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { anthropicModel } from '@harness-kernel/anthropic'
import { openaiModel } from '@harness-kernel/openai'
import { tools } from '@harness-kernel/tools'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTempProject, type FakeOpenAI, newInput, startFakeAnthropic, startFakeOpenAI, startTestKernel } from '../src/index.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(async () => {
  await server.close()
})

describe('a kernel over a temporary project', () => {
  it.each(['responses', 'chat'] as const)(
    'runs turns over the %s API through the OpenAI provider: a tool reads a project file; each outcome holds its own turn',
    async (api) => {
      server.reply(
        { toolCalls: [{ name: 'read_file', input: { path: 'notes/todo.txt' } }] },
        { text: 'It says: ship it.' },
        { text: 'Bye.' },
      )
      const test = await startTestKernel({
        files: { 'notes/todo.txt': 'ship it' },
        plugins: [openaiModel({ model: 'gpt-test', api, baseURL: server.baseURL, apiKey: 'sk-test' }), tools()],
      })
      try {
        expect(readFileSync(test.project.path('notes/todo.txt'), 'utf8')).toBe('ship it')
        const first = await test.run('What does the todo say?')
        expect(first).toMatchObject({ status: 'completed', text: 'It says: ship it.' })
        expect(first.events.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'ship it', isError: false })
        expect(newInput(server.requests[1]!)).toEqual(['output:ship it'])
        const second = await test.run('Thanks.')
        expect(second.text).toBe('Bye.')
        expect(second.events.filter((event) => event.type === 'turn/start')).toHaveLength(1)
        expect(second.events.some((event) => event.type === 'tool/call')).toBe(false)
        expect(test.events().filter((event) => event.type === 'turn/end')).toHaveLength(2)
      } finally {
        await test.dispose()
      }
      expect(existsSync(test.project.dir)).toBe(false)
    },
  )

  it('keepProject leaves the folder; plugins may be made from the project', async () => {
    const anthropic = await startFakeAnthropic()
    let seen = ''
    const test = await startTestKernel({
      keepProject: true,
      plugins: (project) => {
        seen = project.dir
        return [anthropicModel({ model: 'claude-test', baseURL: anthropic.baseURL, apiKey: 'k' }), tools()]
      },
    })
    try {
      expect((await test.run('hi')).text).toBe('FINAL reply to request #0')
      expect(seen).toBe(test.project.dir)
      expect(test.session.cwd).toBe(test.project.dir)
    } finally {
      await test.dispose()
      await anthropic.close()
    }
    expect(existsSync(join(test.project.dir, '.harness', 'sessions'))).toBe(true)
    rmSync(test.project.dir, { recursive: true, force: true })
  })

  it('a project file outside the project is refused, naming it', () => {
    const project = createTempProject()
    try {
      expect(() => project.write('../escape.txt', 'x')).toThrow('a project file must be a path inside the project, got ../escape.txt')
      expect(() => project.path('/etc/passwd')).toThrow('got /etc/passwd')
    } finally {
      project.remove()
    }
    expect(existsSync(project.dir)).toBe(false)
  })
})
