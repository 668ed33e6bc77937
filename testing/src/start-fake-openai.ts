import { chatDialect } from './chat-dialect.js'
import { type FakeModelServer, type FakeModelServerOptions, startFakeModelServer } from './fake-model-server.js'
import { responsesDialect } from './responses-dialect.js'

export type FakeOpenAI = FakeModelServer

/**
 * A fake OpenAI API on 127.0.0.1 (a port of its own) with both of OpenAI's model APIs: `POST /v1/responses` (Codex's,
 * and `@harness-kernel/openai`'s default) and `POST /v1/chat/completions` (every OpenAI-compatible server's), each
 * streamed when the request asks for a stream, else one JSON body. Other requests (a model list) get an empty list.
 * Its `baseURL` (`<url>/v1`) is OPENAI_BASE_URL, or a Codex provider's `base_url`.
 */
export function startFakeOpenAI(options: FakeModelServerOptions = {}): Promise<FakeOpenAI> {
  return startFakeModelServer(
    {
      label: 'fake OpenAI',
      basePath: '/v1',
      dialects: [responsesDialect, chatDialect],
      otherAnswer: () => JSON.stringify({ object: 'list', data: [], models: [] }),
    },
    options,
  )
}
