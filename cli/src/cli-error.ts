import { EXIT } from './exit-codes.js'

/** An error the CLI reports as one line on stderr and turns into an exit code. */
export class CliError extends Error {
  override readonly name: string = 'CliError'
  readonly exitCode: number

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.exitCode = options.exitCode ?? EXIT.usage
  }
}
