import { RustRegexReason as R, RegexSyntaxError } from './regex-syntax-error.js'
import type { Ast, ClassSet, Span } from './rust-regex-ast.js'

/** `regex::RegexBuilder`'s default nest limit. */
const NEST_LIMIT = 250

/** Rust's depth check over the parsed AST: groups, repetitions, alternations, concatenations and (nested) classes count. */
export function checkNestLimit(ast: Ast): void {
  let depth = 0
  const enter = (span: Span) => {
    depth += 1
    if (depth > NEST_LIMIT) throw new RegexSyntaxError(R.nestLimitExceeded(NEST_LIMIT), span)
  }
  const visitSet = (set: ClassSet): void => {
    if (set.kind === 'binary-op') {
      enter(set.span)
      visitSet(set.lhs)
      visitSet(set.rhs)
      depth -= 1
    } else if (set.kind === 'bracketed') {
      enter(set.span)
      visitSet(set.set)
      depth -= 1
    } else if (set.kind === 'union') {
      enter(set.span)
      for (const item of set.items) visitSet(item)
      depth -= 1
    }
  }
  const visit = (node: Ast): void => {
    switch (node.kind) {
      case 'bracketed':
        enter(node.span)
        visitSet(node.set)
        depth -= 1
        return
      case 'repetition':
      case 'group':
        enter(node.span)
        visit(node.ast)
        depth -= 1
        return
      case 'alternation':
      case 'concat':
        enter(node.span)
        for (const child of node.asts) visit(child)
        depth -= 1
        return
      default:
        return
    }
  }
  visit(ast)
}
