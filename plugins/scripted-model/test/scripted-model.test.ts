import type { KernelApi } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { ScriptedModelProvider, scriptedModel } from '../src/index.js'
import { callOptions, request, tempFile } from './helpers.js'

describe('scriptedModel', () => {
  it('is a frozen plugin that exposes its provider', () => {
    const plugin = scriptedModel({ script: [{ text: 'hi' }] })
    expect(plugin.name).toBe('scripted-model')
    expect(plugin.model).toBeInstanceOf(ScriptedModelProvider)
    expect(Object.isFrozen(plugin)).toBe(true)
  })

  it('provides the model as a kernel-lifetime service', async () => {
    const plugin = scriptedModel({ script: tempFile('script.yaml', '- text: from yaml\n'), id: 'demo' })
    const provided: unknown[][] = []
    const kernel = { provide: (...args: unknown[]) => provided.push(args) } as unknown as KernelApi
    await plugin.setup(kernel)
    expect(provided).toEqual([['model', plugin.model, { lifetime: 'kernel' }]])
    expect(plugin.model.id).toBe('demo')
    expect((await plugin.model.generate(request('hi'), callOptions())).content).toEqual([{ type: 'text', text: 'from yaml' }])
    expect(plugin.model.requests).toEqual([request('hi')])
  })

  it('fails at construction when the script is invalid', () => {
    const file = tempFile('script.yaml', '- error: { message: boom }\n')
    expect(() => scriptedModel({ script: file })).toThrow(`${file}: step 1: error.retryable: required (expected boolean)`)
  })
})
