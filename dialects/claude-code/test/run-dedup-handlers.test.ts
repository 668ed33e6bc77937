// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is hook configuration text, never a template.
import { describe, expect, it } from 'vitest'
import { dedupHandlers } from '../src/run/index.js'
import type { ClaudeHandler, UnsupportedHandler } from '../src/types.js'
import { commandHandler, httpHandler, promptHandler } from './fixtures/run/helpers.js'

const keys = (handlers: readonly ClaudeHandler[]) => handlers.map((handler) => handler.key)

describe('dedupHandlers', () => {
  it('keeps the first of an identical command across groups, within a group and across sources', () => {
    const handlers = [
      commandHandler('hook.sh Stop main', { key: 'project-g0-h0' }),
      commandHandler('hook.sh Stop main', { key: 'project-g0-h1', handlerIndex: 1 }),
      commandHandler('other.sh', { key: 'project-g1-h0', groupIndex: 1 }),
      commandHandler('hook.sh Stop main', { key: 'project-g1-h1', groupIndex: 1, handlerIndex: 1 }),
      commandHandler('hook.sh Stop main', { key: 'user-g0-h0', source: 'user', sourcePath: '/home/u/.claude/settings.json' }),
      commandHandler('hook.sh Stop main', { key: 'managed', source: 'managed', sourcePath: '/etc/claude-code/managed-settings.json' }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['project-g0-h0', 'project-g1-h0'])
  })

  it('compares the raw string: two spaces or different quoting run separately', () => {
    const handlers = [
      commandHandler('hook.sh Stop main', { key: 'a' }),
      commandHandler('hook.sh  Stop main', { key: 'b' }),
      commandHandler('"hook.sh" Stop main', { key: 'c' }),
      commandHandler('hook.sh Stop main ', { key: 'd' }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['a', 'b', 'c', 'd'])
  })

  it('tells apart exec-form arguments and shells', () => {
    const handlers = [
      commandHandler('node', { key: 'a', args: ['x.js'] }),
      commandHandler('node', { key: 'b', args: ['x.js'] }),
      commandHandler('node', { key: 'c', args: ['y.js'] }),
      commandHandler('node', { key: 'd' }),
      commandHandler('node', { key: 'e', shell: 'bash' }),
      commandHandler('node', { key: 'f', args: ['x.js'], shell: 'bash' }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['a', 'c', 'd', 'e'])
  })

  it('keeps plugin copies separate from each other and from settings handlers', () => {
    const fmt = { name: 'fmt', root: '/plugins/fmt', data: '/data/fmt' }
    const lint = { name: 'lint', root: '/plugins/lint', data: '/data/lint' }
    const command = '${CLAUDE_PLUGIN_ROOT}/scripts/run.sh'
    const handlers = [
      commandHandler(command, { key: 'settings' }),
      commandHandler(command, { key: 'fmt', source: 'plugin', plugin: fmt }),
      commandHandler(command, { key: 'lint', source: 'plugin', plugin: lint }),
      commandHandler(command, { key: 'fmt-again', source: 'plugin', plugin: fmt, groupIndex: 3 }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['settings', 'fmt', 'lint'])
  })

  it('deduplicates http handlers by URL, whatever their headers', () => {
    const handlers = [
      httpHandler('http://localhost:8080/hook', { key: 'a', headers: { A: '1' } }),
      httpHandler('http://localhost:8080/hook', { key: 'b', headers: { B: '2' } }),
      httpHandler('http://localhost:8080/other', { key: 'c' }),
      commandHandler('http://localhost:8080/hook', { key: 'd' }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['a', 'c', 'd'])
  })

  it('deduplicates identical prompt handlers', () => {
    const handlers = [
      promptHandler('Done? $ARGUMENTS', { key: 'a' }),
      promptHandler('Done? $ARGUMENTS', { key: 'b' }),
      promptHandler('Done? $ARGUMENTS', { key: 'c', model: 'haiku' }),
      promptHandler('Done?  $ARGUMENTS', { key: 'd' }),
    ]
    expect(keys(dedupHandlers(handlers))).toEqual(['a', 'c', 'd'])
  })

  it('never merges unsupported handlers', () => {
    const agent = (key: string): UnsupportedHandler => ({
      ...commandHandler('x', { key }),
      type: 'agent',
      raw: { type: 'agent', prompt: 'p' },
    })
    expect(keys(dedupHandlers([agent('a'), agent('b')]))).toEqual(['a', 'b'])
  })
})
