import { type FakeModelServer, type FakeModelServerOptions, startFakeModelServer } from './fake-model-server.js'
import { messagesDialect } from './messages-dialect.js'

export type FakeAnthropic = FakeModelServer

/**
 * A fake Anthropic Messages API on 127.0.0.1 (a port of its own): `POST /v1/messages`, streamed as server-sent events
 * when the request asks for a stream (as Claude Code and the SDKs do), else one JSON message. Other requests get an
 * empty success (`count_tokens`: `{"input_tokens":1234}`). Its `url` is ANTHROPIC_BASE_URL.
 */
export function startFakeAnthropic(options: FakeModelServerOptions = {}): Promise<FakeAnthropic> {
  return startFakeModelServer(
    {
      label: 'fake Anthropic',
      basePath: '',
      dialects: [messagesDialect],
      otherAnswer: (path) => (path.endsWith('count_tokens') ? '{"input_tokens":1234}' : '{}'),
    },
    options,
  )
}
