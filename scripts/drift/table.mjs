// A markdown table: cells are escaped so a `|` or a line break in a value cannot break the table.

/** `—` for an empty list, else the items joined. */
export const listCell = (items, separator = ', ') => (items.length ? items.join(separator) : '—')

const escapeCell = (value) =>
  String(value ?? '')
    .replaceAll('\\', '\\\\')
    .replaceAll('|', '\\|')
    .replaceAll(/\r?\n/g, '<br>')

/**
 * @param {string[]} head
 * @param {unknown[][]} rows
 * @returns {string[]} the table's lines
 */
export function markdownTable(head, rows) {
  const line = (cells) => `| ${cells.map(escapeCell).join(' | ')} |`
  return [line(head), `|${head.map(() => '---|').join('')}`, ...rows.map(line)]
}
