import { describe, expect, it } from 'vitest'
import { resolveEndpoint } from '../src/endpoint.js'
import { createOpenAIProvider, openaiModel } from '../src/index.js'

describe('resolveEndpoint', () => {
  it('OpenAI by default, named "OpenAI API"; the key from OPENAI_API_KEY', () => {
    expect(resolveEndpoint({ model: 'm' }, { OPENAI_API_KEY: ' sk-env ' })).toEqual({
      baseURL: 'https://api.openai.com/v1',
      label: 'OpenAI API',
      isOpenAI: true,
      apiKey: 'sk-env',
      keySource: 'env',
    })
  })

  it('OPENAI_BASE_URL, else the option; other servers are named by host; trailing slashes dropped', () => {
    const deepseek = resolveEndpoint({ model: 'm' }, { OPENAI_BASE_URL: 'https://api.deepseek.com/', OPENAI_API_KEY: 'k' })
    expect(deepseek).toMatchObject({ baseURL: 'https://api.deepseek.com', label: 'api.deepseek.com', isOpenAI: false })
    const option = resolveEndpoint({ model: 'm', baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'x' }, { OPENAI_BASE_URL: 'https://a.b' })
    expect(option).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', label: '127.0.0.1:11434', apiKey: 'x', keySource: 'option' })
  })

  it('loopback servers get a placeholder key; remote ones without a key have none', () => {
    expect(resolveEndpoint({ model: 'm', baseURL: 'http://localhost:8000/v1' }, {})).toMatchObject({ keySource: 'placeholder' })
    expect(resolveEndpoint({ model: 'm', baseURL: 'https://api.deepseek.com' }, {})).toMatchObject({ apiKey: undefined, keySource: 'none' })
  })
})

describe('provider identity', () => {
  it('id is the model name (hook payloads carry it as `model`); capabilities follow the API', () => {
    const responses = createOpenAIProvider({ model: 'gpt-5.1', apiKey: 'k' })
    expect(responses.id).toBe('gpt-5.1')
    expect(responses.capabilities).toEqual({ systemMessagesInConversation: true })
    const chat = createOpenAIProvider({ model: 'deepseek-chat', api: 'chat', apiKey: 'k', id: 'deepseek:chat' })
    expect(chat.id).toBe('deepseek:chat')
    expect(chat.capabilities).toEqual({ systemMessagesInConversation: false })
  })

  it('the plugin is model-openai and exposes its provider; bad options fail at composition', () => {
    const plugin = openaiModel({ model: 'gpt-5.1', apiKey: 'k' })
    expect(plugin.name).toBe('model-openai')
    expect(plugin.model.id).toBe('gpt-5.1')
    expect(() => openaiModel({ model: '' })).toThrow('openaiModel: `model` is required')
    expect(() => openaiModel({ model: 'm', api: 'completions' as never })).toThrow(
      "openaiModel: api must be 'responses' or 'chat', not \"completions\"",
    )
  })
})
