export { LOCAL_API_KEY, OPENAI_BASE_URL } from './endpoint.js'
export { createOpenAIProvider, type OpenAIModelPlugin, openaiModel, PLUGIN_NAME } from './openai-model.js'
export { OpenAIProvider } from './openai-provider.js'
export type { OpenAIApi, OpenAIModelOptions, OpenAIReasoningOptions, ReasoningEffort } from './options.js'
