import { anthropicModel } from '@harness-kernel/anthropic'
import { definePlugin } from '@harness-kernel/kernel'
import { type FakeAnthropic, newInput, runKernelTurn, startFakeAnthropic } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { afterEach, beforeEach, expect, it } from 'vitest'

// The worked example of the README, as it is there: a plugin that blocks a tool call, tested with the kit.

/** Denies any shell command that runs `rm -rf`, and tells the model why. */
const noRmRf = definePlugin({
  name: 'no-rm-rf',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tap('no-rm-rf', (decision, { call }) => {
      const command = String((call.input as { command?: unknown }).command ?? '')
      return /\brm\s+-rf\b/.test(command) ? { kind: 'deny', reason: 'rm -rf is not allowed here' } : decision
    })
  },
})

let server: FakeAnthropic
beforeEach(async () => {
  server = await startFakeAnthropic()
})
afterEach(async () => {
  await server.close()
})

it('the plugin denies `rm -rf` before it runs, and the model is told why', async () => {
  server.reply({ toolCalls: [{ name: 'shell', input: { command: 'rm -rf build' } }] }, { text: 'I left the build folder alone.' })

  const turn = await runKernelTurn({
    prompt: 'Clean up the build folder.',
    plugins: [anthropicModel({ model: 'claude-test', baseURL: server.baseURL, apiKey: 'test-key' }), tools(), noRmRf],
  })

  expect(turn.status).toBe('completed')
  expect(turn.text).toBe('I left the build folder alone.')
  expect(turn.events.find((event) => event.type === 'tool/call')).toMatchObject({ name: 'shell', decision: 'deny' })
  // The model's second request carries the denial as the call's result.
  expect(server.requests).toHaveLength(2)
  expect(newInput(server.requests[1]!)).toEqual(['output:rm -rf is not allowed here'])
})
