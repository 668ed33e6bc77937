import { describe, expect, it } from 'vitest'
import { codexSchemaErrors, RESPONSE_TYPE_OF } from './support/codex-schema.js'

const notification = (method: string, params: unknown) => ({ method, params, emittedAtMs: 1 })
const userText = [{ type: 'text', text: 'hi', text_elements: [] }]

describe('the check against the schemas of Codex 0.169.0 and 0.171.0', () => {
  it('knows the response type of every client method of the schema', () => {
    expect(RESPONSE_TYPE_OF.size).toBeGreaterThan(100)
    for (const method of RESPONSE_TYPE_OF.keys()) {
      expect(codexSchemaErrors({ id: 1, result: {} }, method).join(), method).not.toContain('no response type')
    }
    expect(codexSchemaErrors({ id: 1, result: {} }, 'bogus/method')).toEqual([
      'a response to `bogus/method`, which Codex has no response type for',
    ])
  })

  it('finds what Codex would not send: a missing member, an unknown notification, a wrong framing', () => {
    expect(codexSchemaErrors({ id: 1, result: { turnId: 'x' } }, 'turn/steer')).toEqual([])
    expect(codexSchemaErrors({ id: 1, result: {} }, 'turn/steer')).toEqual(["TurnSteerResponse: / must have required property 'turnId'"])
    expect(codexSchemaErrors(notification('thread/status/changed', { threadId: 't', status: { type: 'idle' } }))).toEqual([])
    expect(codexSchemaErrors(notification('thread/status/changed', { threadId: 't', status: { type: 'busy' } }))).not.toEqual([])
    expect(codexSchemaErrors(notification('bogus/changed', {}))).toEqual(['ServerNotification: Codex has no `bogus/changed`'])
    expect(codexSchemaErrors({ method: 'warning', params: { message: 'm' } })).toEqual([
      'framing: a notification carries an integer `emittedAtMs`',
    ])
    expect(codexSchemaErrors({ jsonrpc: '2.0', id: 1, result: { turnId: 'x' } }, 'turn/steer')).toEqual([
      'framing: Codex sends no `jsonrpc` member',
    ])
    expect(codexSchemaErrors({ id: 1, error: { code: -32600, message: 'no' } })).toEqual([])
  })

  it('checks a message against each version that has its method, naming the versions an error is particular to', () => {
    // Only 0.171.0 has them: checked against it alone.
    expect(codexSchemaErrors(notification('thread/search/partial', { requestId: 1, data: [] }))).toEqual([])
    expect(codexSchemaErrors(notification('thread/search/partial', { data: [] }))).toEqual([
      "thread/search/partial params (ThreadSearchPartialNotification): / must have required property 'requestId'",
    ])
    const written = { status: 'ok', version: 'sha256:0', filePath: '/h/config.toml', overriddenMetadata: null }
    expect(codexSchemaErrors({ id: 1, result: written }, 'modelProvider/default/set')).toEqual([])
    // An answer's `display` changed shape in 0.171.0: each version's form is an error for the other one's clients.
    const answer = (display: unknown) =>
      notification('item/completed', {
        item: { type: 'agentMessage', id: 'm', text: 'hi', moderation: { moderated: true, display } },
        threadId: 't',
        turnId: 'u',
        completedAtMs: 1,
      })
    const older = codexSchemaErrors(answer({ action: 'show' }))
    const newer = codexSchemaErrors(answer({ version: 1, mode: 'show', trustedContacts: 'skip' }))
    expect(older.length).toBeGreaterThan(0)
    expect(newer.length).toBeGreaterThan(0)
    for (const error of older) expect(error).toMatch(/^\(Codex 0\.171\.0\) /)
    for (const error of newer) expect(error).toMatch(/^\(Codex 0\.169\.0\) /)
  })

  it('exempts exactly the documented extensions, and checks their standard part', () => {
    expect(codexSchemaErrors(notification('turn/steer/dropped', { anything: true }))).toEqual([])
    expect(codexSchemaErrors({ method: 'turn/hostInput/request', id: 0, params: {} })).toEqual([])
    expect(codexSchemaErrors({ method: 'item/tool/requestUserInput', id: 0, params: {} })).not.toEqual([])
    const init = { userAgent: 'a', codexHome: '/h', platformFamily: 'unix', platformOs: 'linux', driver: {}, hostInput: {} }
    expect(codexSchemaErrors({ id: 1, result: init }, 'initialize')).toEqual([])
    const hostItem = (content: unknown) => ({
      type: 'hostInputMessage',
      id: 'hi_1',
      role: 'developer',
      authority: 'host',
      clientId: null,
      content,
    })
    const completed = (item: unknown) => notification('item/completed', { item, threadId: 't', turnId: 'u', completedAtMs: 1 })
    expect(codexSchemaErrors(completed(hostItem(userText)))).toEqual([])
    expect(codexSchemaErrors(completed(hostItem('not input')))).not.toEqual([])
    expect(codexSchemaErrors(completed({ type: 'otherMessage', id: 'x' }))).not.toEqual([])
  })
})
