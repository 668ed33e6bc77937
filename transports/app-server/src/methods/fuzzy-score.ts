/**
 * Fuzzy matching of a query against a path, scored as Codex scores `fuzzyFileSearch` (its file search uses
 * `nucleo_matcher`, a port of fzf's v2 algorithm): the best alignment of the query's characters, in order, case
 * ignored, with points per matched character, bonuses where a match starts a word or continues a run, and penalties
 * for gaps. `fileMatchScore` adds Codex's bonuses for matches in the file name.
 */

const SCORE_MATCH = 16
const PENALTY_GAP_START = 3
const PENALTY_GAP_EXTENSION = 1
/** A match right after a non-word character (`.`, `-`, `_`, …). */
const BONUS_BOUNDARY = SCORE_MATCH / 2
/** A match after a space, and after a path delimiter (or at the start). */
const BONUS_BOUNDARY_WHITE = BONUS_BOUNDARY + 2
const BONUS_BOUNDARY_DELIMITER = BONUS_BOUNDARY + 1
/** A matched non-word character. */
const BONUS_NON_WORD = SCORE_MATCH / 2
/** camelCase and letter-to-digit transitions. */
const BONUS_CAMEL_123 = BONUS_BOUNDARY - PENALTY_GAP_START
/** The least bonus of a character that continues a run of matches. */
const BONUS_CONSECUTIVE = PENALTY_GAP_START + PENALTY_GAP_EXTENSION
const BONUS_FIRST_CHAR_MULTIPLIER = 2
const DELIMITERS = '/,:;|'

/** Codex's bonuses: all matched characters in a file's name; the name (of a file or a directory) equal to the query. */
const FILE_NAME_BONUS = 1 << 16
const EXACT_NAME_BONUS = 1 << 17

enum CharClass {
  White = 0,
  NonWord = 1,
  Delimiter = 2,
  Lower = 3,
  Upper = 4,
  Letter = 5,
  Number = 6,
}

export interface FuzzyMatch {
  score: number
  /** Code point indices of the matched characters in the path, ascending. */
  indices: number[]
}

function classOf(char: string): CharClass {
  if (/\s/u.test(char)) return CharClass.White
  if (DELIMITERS.includes(char)) return CharClass.Delimiter
  if (char >= '0' && char <= '9') return CharClass.Number
  if (char >= 'a' && char <= 'z') return CharClass.Lower
  if (char >= 'A' && char <= 'Z') return CharClass.Upper
  if (/\p{L}/u.test(char))
    return char === char.toLowerCase() ? (char === char.toUpperCase() ? CharClass.Letter : CharClass.Lower) : CharClass.Upper
  if (/\p{N}/u.test(char)) return CharClass.Number
  return CharClass.NonWord
}

function bonusFor(previous: CharClass, current: CharClass): number {
  if (current > CharClass.Delimiter) {
    if (previous === CharClass.White) return BONUS_BOUNDARY_WHITE
    if (previous === CharClass.Delimiter) return BONUS_BOUNDARY_DELIMITER
    if (previous === CharClass.NonWord) return BONUS_BOUNDARY
  }
  if ((previous === CharClass.Lower && current === CharClass.Upper) || (previous !== CharClass.Number && current === CharClass.Number)) {
    return BONUS_CAMEL_123
  }
  if (current === CharClass.White) return BONUS_BOUNDARY_WHITE
  if (current === CharClass.NonWord) return BONUS_NON_WORD
  return 0
}

/** The best-scoring alignment of `query` in `text` (fzf v2), or undefined when its characters are not all there in order. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  if (!inOrder(query.toLowerCase(), text.toLowerCase())) return undefined
  const pattern = [...query.toLowerCase()]
  const raw = [...text]
  const chars = raw.map((char) => char.toLowerCase())
  const m = pattern.length
  const n = chars.length
  if (m === 0) return undefined
  // Where each query character first fits after the previous one; the last place the final one fits.
  const first = new Array<number>(m)
  let found = 0
  for (let j = 0; j < n && found < m; j++) if (chars[j] === pattern[found]) first[found++] = j
  if (found < m) return undefined
  let lastIndex = first[m - 1] as number
  for (let j = n - 1; j > lastIndex; j--) {
    if (chars[j] === pattern[m - 1]) {
      lastIndex = j
      break
    }
  }
  const bonus = new Array<number>(n)
  let previous = CharClass.Delimiter
  for (let j = 0; j < n; j++) {
    const current = classOf(raw[j] as string)
    bonus[j] = bonusFor(previous, current)
    previous = current
  }

  const start = first[0] as number
  const width = lastIndex - start + 1
  // score[i * width + j - start]: the best score of query[0..i] with query[i] at text[j] or before; run: its run length.
  const score = new Int32Array(m * width)
  const run = new Int32Array(m * width)
  let inGap = false
  let left = 0
  for (let j = start; j <= lastIndex; j++) {
    const at = j - start
    if (chars[j] === pattern[0]) {
      score[at] = SCORE_MATCH + (bonus[j] as number) * BONUS_FIRST_CHAR_MULTIPLIER
      run[at] = 1
      inGap = false
    } else {
      score[at] = Math.max(left - (inGap ? PENALTY_GAP_EXTENSION : PENALTY_GAP_START), 0)
      run[at] = 0
      inGap = true
    }
    left = score[at] as number
  }
  for (let i = 1; i < m; i++) {
    const row = i * width
    const from = first[i] as number
    inGap = false
    for (let j = from; j <= lastIndex; j++) {
      const at = j - start
      const leftScore: number = j > from ? (score[row + at - 1] as number) : 0
      const gap: number = leftScore - (inGap ? PENALTY_GAP_EXTENSION : PENALTY_GAP_START)
      let matched = 0
      let length = 0
      if (chars[j] === pattern[i]) {
        matched = (score[row - width + at - 1] as number) + SCORE_MATCH
        let b = bonus[j] as number
        length = (run[row - width + at - 1] as number) + 1
        if (length > 1) {
          const firstBonus = bonus[j - length + 1] as number
          if (b >= BONUS_BOUNDARY && b > firstBonus) length = 1
          else b = Math.max(b, BONUS_CONSECUTIVE, firstBonus)
        }
        if (matched + b < gap) {
          matched += bonus[j] as number
          length = 0
        } else matched += b
      }
      run[row + at] = length
      inGap = matched < gap
      score[row + at] = Math.max(matched, gap, 0)
    }
  }

  const lastRow = (m - 1) * width
  let best = -1
  let bestAt = lastIndex
  for (let j = first[m - 1] as number; j <= lastIndex; j++) {
    const value = score[lastRow + j - start] as number
    if (value > best) {
      best = value
      bestAt = j
    }
  }

  const indices: number[] = []
  let i = m - 1
  let j = bestAt
  let preferMatch = true
  for (;;) {
    const row = i * width
    const at = j - start
    const here = score[row + at] as number
    const diagonal = i > 0 && j >= (first[i] as number) ? (score[row - width + at - 1] as number) : 0
    const leftward = j > (first[i] as number) ? (score[row + at - 1] as number) : 0
    if (here > diagonal && (here > leftward || (here === leftward && preferMatch))) {
      indices.push(j)
      if (i === 0) break
      i--
    }
    preferMatch = (run[row + at] as number) > 1 || (row + width + at + 1 < run.length && (run[row + width + at + 1] as number) > 0)
    j--
  }
  return { score: best, indices: indices.reverse() }
}

/** True when every character of `query` is in `text`, in order (the cheap test before scoring). */
function inOrder(query: string, text: string): boolean {
  let at = 0
  for (const char of query) {
    at = text.indexOf(char, at)
    if (at < 0) return false
    at += char.length
  }
  return true
}

/**
 * A path's match as Codex ranks it: the fuzzy score, plus 65,536 when every matched character is in a file's name, plus
 * 131,072 when the name (of a file or a directory) is the query itself (case ignored).
 */
export function fileMatchScore(query: string, path: string, kind: 'file' | 'directory'): FuzzyMatch | undefined {
  const match = fuzzyMatch(query, path)
  if (!match) return undefined
  const name = path.slice(path.lastIndexOf('/') + 1)
  const nameStart = [...path].length - [...name].length
  let score = match.score
  if (kind === 'file' && match.indices.every((index) => index >= nameStart)) score += FILE_NAME_BONUS
  if (name.toLowerCase() === query.toLowerCase()) score += EXACT_NAME_BONUS
  return { score, indices: match.indices }
}
