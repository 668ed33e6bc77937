import type { RulesExpr, RulesStatement } from './rules-ast.js'
import { bindArguments, RULES_BUILTINS, type RulesBuilder } from './rules-builtins.js'
import type { RulesPosition } from './rules-syntax-error.js'
import { addValues, NONE, type RulesValue } from './rules-values.js'

/** A problem running a `.rules` file, at the call (or expression) that raised it; the caller names the file. */
export class RulesEvalError extends Error {
  constructor(
    message: string,
    readonly at: RulesPosition,
  ) {
    super(message)
  }
}

const CONSTANTS: Record<string, RulesValue> = {
  True: { type: 'bool', value: true },
  False: { type: 'bool', value: false },
  None: NONE,
}

/** Runs parsed statements in order, collecting rules and host executables into `builder`. */
export function evaluateRules(statements: readonly RulesStatement[], builder: RulesBuilder): void {
  const globals = new Map<string, RulesValue>()

  for (const statement of statements) {
    const value = evaluate(statement.value)
    if (statement.kind === 'assign') globals.set(statement.name, value)
  }

  function evaluate(expr: RulesExpr): RulesValue {
    switch (expr.kind) {
      case 'string':
        return { type: expr.bytes ? 'bytes' : 'string', value: expr.value }
      case 'int':
        return { type: 'int', value: expr.value }
      case 'list':
      case 'tuple':
        return { type: expr.kind, items: expr.items.map(evaluate) }
      case 'name': {
        const value = globals.get(expr.name) ?? CONSTANTS[expr.name]
        if (value) return value
        if (expr.name in RULES_BUILTINS) throw new RulesEvalError(`\`${expr.name}\` can only be called`, expr)
        throw new RulesEvalError(`Variable \`${expr.name}\` not found`, expr)
      }
      case 'add': {
        const left = evaluate(expr.left)
        const right = evaluate(expr.right)
        const sum = addValues(left, right)
        if (sum === undefined)
          throw new RulesEvalError(`Operation \`+\` not supported for types \`${left.type}\` and \`${right.type}\``, expr)
        return sum
      }
      case 'call': {
        const builtin = Object.hasOwn(RULES_BUILTINS, expr.callee) ? RULES_BUILTINS[expr.callee] : undefined
        if (builtin === undefined) {
          const known = globals.has(expr.callee) || expr.callee in CONSTANTS
          throw new RulesEvalError(known ? `\`${expr.callee}\` is not callable` : `Variable \`${expr.callee}\` not found`, expr)
        }
        const args = expr.args.map((arg) => ({ name: arg.name, value: evaluate(arg.value) }))
        const positional = args.filter((arg) => arg.name === undefined).map((arg) => arg.value)
        const named = args.flatMap((arg) => (arg.name === undefined ? [] : [[arg.name, arg.value] as [string, RulesValue]]))
        try {
          builtin.run(bindArguments({ callee: expr.callee, params: builtin.params, positional, named }), builder, {
            line: expr.line,
            column: expr.column,
          })
        } catch (err) {
          if (err instanceof RulesEvalError) throw err
          throw new RulesEvalError((err as Error).message, expr)
        }
        return NONE
      }
    }
  }
}
