export type { ChatMessage, ContentBlock, InputItem, MessageParam, ModelApi } from './api-types.js'
export { directiveReply } from './directives.js'
export type { FakeModelServer, FakeModelServerOptions, ServerEvent } from './fake-model-server.js'
export { type Gate, gate } from './gate.js'
export { pidIn, processAlive, untilExited, waitForExit, waitForPids } from './processes.js'
export type { RecordedRequest } from './recorded-request.js'
export type {
  DisconnectReply,
  ErrorReply,
  FramesReply,
  HttpReply,
  MessageReply,
  NoAnswerReply,
  OtherReply,
  Reply,
  ReplyUsage,
  ToolCallReply,
} from './reply.js'
export { isMessageReply } from './reply.js'
export { apiError, json, plain, type SseOptions, sse } from './reply-builders.js'
export {
  itemText,
  lastUserMessage,
  mainRequests,
  newInput,
  type RequestLike,
  toolCallReplies,
  toolsOf,
  userTexts,
} from './request-views.js'
export { type FakeAnthropic, startFakeAnthropic } from './start-fake-anthropic.js'
export { type FakeOpenAI, startFakeOpenAI } from './start-fake-openai.js'
export { createTempProject, type TempProject, type TempProjectOptions } from './temp-project.js'
export {
  readSessionEvents,
  runKernelTurn,
  startTestKernel,
  type TestKernel,
  type TestKernelOptions,
  type TurnOutcome,
} from './test-kernel.js'
export { WAIT_BOUND_MS, type WaitUntilOptions, waitUntil } from './wait-until.js'
