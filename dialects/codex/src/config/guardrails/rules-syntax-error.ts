import { CodexGuardrailsConfigError } from './codex-guardrails-config-error.js'

/** A position in a `.rules` file, 1-based as Codex prints it. */
export interface RulesPosition {
  line: number
  column: number
}

/** A `.rules` file Codex would not load: the message starts `<file>:<line>:<column>: `. */
export class CodexRulesError extends CodexGuardrailsConfigError {
  readonly line: number
  readonly column: number

  constructor(options: { file: string; at: RulesPosition; message: string }) {
    super(`${options.file}:${options.at.line}:${options.at.column}: ${options.message}`, options.file)
    this.name = 'CodexRulesError'
    this.line = options.at.line
    this.column = options.at.column
  }
}
