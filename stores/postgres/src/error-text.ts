import { errorMessage } from '@harness-kernel/kernel'

/**
 * An error's message; for an `AggregateError` without one (Node's connect to a name with several addresses, such as
 * `localhost`: each address refused), the messages of its errors, each once.
 */
export function errorText(error: unknown): string {
  const message = errorMessage(error)
  if (message !== '' || !(error instanceof AggregateError)) return message
  return [...new Set(error.errors.map(errorText))].join('; ')
}
