/**
 * Cuts a password out of a text: as written, and URL-encoded (as a connection string carries it). A driver's or
 * server's message may quote the connection it failed on; a message this store builds never shows the password.
 */
export function redact(text: string, password: string | undefined): string {
  if (password === undefined || password === '') return text
  let result = text
  for (const form of new Set([password, encodeURIComponent(password)])) result = result.split(form).join('***')
  return result
}
