/** A Starlark value as a `.rules` file can build it. */
export type RulesValue =
  | { type: 'string'; value: string }
  | { type: 'bytes'; value: string }
  | { type: 'int'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'NoneType' }
  | { type: 'list' | 'tuple'; items: RulesValue[] }

export const NONE: RulesValue = { type: 'NoneType' }

/** Starlark's `repr`, for messages. */
export function reprOf(value: RulesValue): string {
  switch (value.type) {
    case 'string':
      return JSON.stringify(value.value)
    case 'bytes':
      return `b${JSON.stringify(value.value)}`
    case 'int':
      return value.value.toString()
    case 'bool':
      return value.value ? 'True' : 'False'
    case 'NoneType':
      return 'None'
    case 'list':
      return `[${value.items.map(reprOf).join(', ')}]`
    case 'tuple':
      return value.items.length === 1 ? `(${reprOf(value.items[0]!)},)` : `(${value.items.map(reprOf).join(', ')})`
  }
}

export function addValues(left: RulesValue, right: RulesValue): RulesValue | undefined {
  if (left.type === 'string' && right.type === 'string') return { type: 'string', value: left.value + right.value }
  if (left.type === 'int' && right.type === 'int') return { type: 'int', value: left.value + right.value }
  if ((left.type === 'list' || left.type === 'tuple') && right.type === left.type)
    return { type: left.type, items: [...left.items, ...right.items] }
  return undefined
}
