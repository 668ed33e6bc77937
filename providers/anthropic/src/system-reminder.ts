/** Claude Code's classic form for context that is not the user's own words, sent inside user content. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}
