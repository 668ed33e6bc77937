export {
  type CommandLineEvaluation,
  type CommandRuleDecision,
  type CommandRuleMatch,
  type EvaluateCommandLineOptions,
  evaluateCommandLine,
  type MatchCommandRulesOptions,
  matchCommandRules,
} from './command-rules.js'
export {
  type DangerousCommandMatch,
  dangerousCommandLineMatch,
  dangerousCommandMatch,
  isDangerousCommand,
  isDangerousCommandLine,
} from './dangerous-command.js'
export { isIgnoredAllowPrefix } from './ignored-allow-prefixes.js'
export { isKnownSafeCommand, isKnownSafeCommandLine } from './known-safe-command.js'
export { literalCommands, plainCommands } from './parse-command-line.js'
export { shellWrapperScript } from './shell-wrapper.js'
