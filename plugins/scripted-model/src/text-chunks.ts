/** Splits text into word-sized chunks (each keeps its trailing whitespace) that concatenate back to the text. */
export function textChunks(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/).filter((chunk) => chunk.length > 0)
}
