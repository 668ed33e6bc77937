import { type KernelApi, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { classicRenderer } from '../render/classic-renderer.js'
import { hookTextMeta, PLUGIN_NAME } from '../render/hook-text.js'
import type { ClaudeRenderer } from '../render/renderer.js'
import { systemRenderer } from '../render/system-renderer.js'
import type { ClaudeCodeHooksOptions } from './options.js'

/** Picks the renderer: `auto` is system-role only where the provider declares mid-conversation system messages. */
export function chooseRenderer(rendering: ClaudeCodeHooksOptions['rendering'], systemMessagesInConversation: boolean): ClaudeRenderer {
  if (rendering === undefined || rendering === 'auto') return systemMessagesInConversation ? systemRenderer : classicRenderer
  if (rendering === 'classic') return classicRenderer
  if (rendering === 'system') return systemRenderer
  return rendering
}

/** Renders hook texts at request build, after every other tap has seen the neutral form; the log never changes. */
export function tapRendering(kernel: KernelApi, renderer: () => ClaudeRenderer): void {
  kernel.hooks.modelRequest.tap({ name: `${PLUGIN_NAME}:render`, stage: STAGE_OBSERVE, rendersOnly: true } as never, (request) => {
    if (!request.messages.some((message) => hookTextMeta(message) !== undefined)) return request
    return { ...request, messages: renderer().render(request.messages) }
  })
}
