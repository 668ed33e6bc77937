/**
 * What the session's own model is asked when it writes a summary. Sent as the last user message after the whole
 * conversation, with the session's system prompt and tools (providers refuse tool calls in a history without them).
 */
export const COMPACTION_PROMPT = `Your context window is nearly full, so this conversation will be replaced by a summary you write now. Write it for yourself: after it you will continue the work with only the summary (and the last few messages) in front of you.

Include:
1. The user's requests and goals, in their own words where they matter, and every constraint or preference they stated.
2. What has been done: files read, created or changed (with paths), commands run and what they showed, decisions taken and why.
3. Errors met and how they were fixed, and what did not work.
4. The current state: what you were doing right before this summary, and what is left to do, in order.

Be specific (names, paths, values); leave out pleasantries. Do not call tools. Answer with the summary only.`

/** The user message a summary becomes: what the model sees in place of the conversation it replaces. */
export function summaryText(summary: string): string {
  return `This session continues a conversation that was summarized to fit the context window. The summary:\n\n${summary}`
}
