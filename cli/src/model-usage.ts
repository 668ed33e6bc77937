/** How `--model` is written, for help texts and messages; kept apart from the providers so help loads none of them. */
export const MODEL_USAGE = '--model scripted:FILE|openai:MODEL|anthropic:MODEL|deepseek:MODEL|ollama:MODEL|openai-chat:MODEL'
