import { type ModelRequest, userMessage } from '@harness-kernel/kernel'
import type { PromptHandler } from '../types.js'

export const PROMPT_HOOK_SYSTEM = [
  'You are evaluating a hook in a coding agent. The user message holds the hook instruction and the JSON input of the event that triggered it.',
  'Decide whether the condition the instruction describes is met.',
  'Answer with ONLY one JSON object and nothing else: {"ok": true} when it is met, or {"ok": false, "reason": "<why, addressed to the agent>"} when it is not.',
].join('\n')

const ARGUMENTS = '$ARGUMENTS'

/**
 * The prompt with every `$ARGUMENTS` replaced by the payload JSON; `\$` is an escaped, literal `$`. A prompt without
 * `$ARGUMENTS` gets the payload JSON appended after a blank line.
 */
export function promptHookText(prompt: string, payloadJson: string): string {
  let text = ''
  let substituted = false
  for (let index = 0; index < prompt.length; index++) {
    const char = prompt[index]!
    if (char === '\\' && prompt[index + 1] === '$') {
      text += '$'
      index++
    } else if (prompt.startsWith(ARGUMENTS, index)) {
      text += payloadJson
      substituted = true
      index += ARGUMENTS.length - 1
    } else {
      text += char
    }
  }
  return substituted ? text : `${text}\n\n${payloadJson}`
}

/** `handler.model` is not honoured: the kernel's model service is one model. */
export function promptHookRequest(handler: Pick<PromptHandler, 'prompt'>, payloadJson: string): ModelRequest {
  return { system: PROMPT_HOOK_SYSTEM, messages: [userMessage(promptHookText(handler.prompt, payloadJson))], tools: [] }
}
