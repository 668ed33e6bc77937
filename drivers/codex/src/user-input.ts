import { randomUUID } from 'node:crypto'
import type { Message } from '@harness-kernel/kernel'
import { steeringItemIdOf, textOf } from '@harness-kernel/kernel'

export interface TextInput {
  type: 'text'
  text: string
  text_elements: []
}

/** Codex's `UserInput[]` for kernel user messages: one text input each. */
export function userInputs(messages: readonly Message[]): TextInput[] {
  return messages.map((message) => ({ type: 'text', text: textOf(message), text_elements: [] }))
}

/** `thread/inject_items`: developer context as Responses items, roles kept. */
export function contextItems(messages: readonly Message[]): unknown[] {
  return messages.map((message) => ({
    type: 'message',
    role: message.role === 'user' ? 'user' : 'developer',
    content: [{ type: 'input_text', text: textOf(message) }],
  }))
}

/** The `clientUserMessageId` input goes out with: its first steering item's id (Codex's receipt names it), else a new one. */
export function clientIdOf(prompt: readonly Message[]): string {
  return prompt.map(steeringItemIdOf).find((id) => id !== undefined) ?? randomUUID()
}
