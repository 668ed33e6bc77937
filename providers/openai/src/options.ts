export type OpenAIApi = 'responses' | 'chat'

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'

export interface OpenAIReasoningOptions {
  /** Responses `reasoning.effort`; Chat Completions `reasoning_effort`. Only for models that reason. */
  effort?: ReasoningEffort
  /** Responses only: `reasoning.summary`. The kernel has no slot for summaries yet, so they are requested but not kept. */
  summary?: 'auto' | 'concise' | 'detailed'
}

export interface OpenAIModelOptions {
  /** The model name the server knows: `gpt-5.1`, `deepseek-chat`, `qwen3:8b`, … */
  model: string
  /** `responses` (default, OpenAI's current API) or `chat` (Chat Completions, what most compatible servers speak). */
  api?: OpenAIApi
  /** Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  baseURL?: string
  /**
   * Default `OPENAI_API_KEY`. A server on a loopback address (Ollama, a local vLLM) needs none: a placeholder is sent.
   */
  apiKey?: string
  /** Where `apiKey` came from, for the hint of a 401 (`check DEEPSEEK_API_KEY`). Default: `the apiKey option`. */
  apiKeySource?: string
  /** `OpenAI-Organization`; default `OPENAI_ORG_ID`, only sent to api.openai.com. */
  organization?: string
  /** `OpenAI-Project`; default `OPENAI_PROJECT_ID`, only sent to api.openai.com. */
  project?: string
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>
  temperature?: number
  /** Responses `max_output_tokens`; Chat `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere. */
  maxOutputTokens?: number
  reasoning?: OpenAIReasoningOptions
  /**
   * Chat only: the role `developer` messages are sent with. `system` (default) is accepted by every compatible
   * server and by OpenAI (which treats it as `developer` for reasoning models); `developer` for servers that want it.
   */
  developerRole?: 'system' | 'developer'
  /**
   * Fields merged into every request body last: server-specific parameters (`top_k`, vLLM `chat_template_kwargs`, …).
   * A field set to `undefined` is dropped from the body.
   */
  extraBody?: Record<string, unknown>
  /** How long to wait for the response to start (its headers). Default 10 minutes (the SDK's). */
  timeoutMs?: number
  /** A stream silent this long is abandoned and the attempt fails (retryable). Default 300000 (5 min); 0 disables. */
  streamIdleTimeoutMs?: number
  /** The provider id (hook payloads' `model`, notices). Default: `model`. */
  id?: string
  /** Where `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_ORG_ID` and `OPENAI_PROJECT_ID` are read. Default `process.env`. */
  env?: Record<string, string | undefined>
}
