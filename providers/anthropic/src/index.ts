export { type AnthropicModelPlugin, anthropicModel, createAnthropicProvider } from './anthropic-model.js'
export { type AnthropicModelOptions, DEFAULT_MAX_TOKENS } from './anthropic-options.js'
export { AnthropicProvider, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './anthropic-provider.js'
