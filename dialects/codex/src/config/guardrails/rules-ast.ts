import type { RulesPosition } from './rules-syntax-error.js'

export type RulesExpr = RulesPosition &
  (
    | { kind: 'string'; value: string; bytes: boolean }
    | { kind: 'int'; value: bigint }
    | { kind: 'name'; name: string }
    | { kind: 'list' | 'tuple'; items: RulesExpr[] }
    | { kind: 'call'; callee: string; args: RulesArg[] }
    | { kind: 'add'; left: RulesExpr; right: RulesExpr }
  )

export interface RulesArg {
  /** Set for a keyword argument. */
  name?: string
  value: RulesExpr
  at: RulesPosition
}

export type RulesStatement = RulesPosition & ({ kind: 'assign'; name: string; value: RulesExpr } | { kind: 'expr'; value: RulesExpr })
