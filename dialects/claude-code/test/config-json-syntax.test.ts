import { describe, expect, it } from 'vitest'
import { describeJsonSyntaxError } from '../src/config/json-syntax-error.js'

describe('JSON syntax errors name a line and column', () => {
  it.each([
    ['{"hooks": {"Stop": [,]}}', 'line 1, column 21: expected a value, found ","'],
    ['{\n  "a": 1,\n}', 'line 3, column 1: expected a property name in double quotes, found "}"'],
    ['{"a": 1 "b": 2}', `line 1, column 9: expected ',' or '}', found "\\""`],
    ['[1, 2', "line 1, column 6: expected ',' or ']', found the end of the file"],
    ['{"a": "unterminated', `line 1, column 20: expected a closing '"', found the end of the file`],
    ['{"a": "bad \\q escape"}', 'line 1, column 13: expected an escape character, found "q"'],
    ['{"a": "\\u12"}', 'line 1, column 12: expected a hex digit, found "\\""'],
    ['{"a": "tab\there"}', 'line 1, column 11: expected an escaped control character, found "\\t"'],
    ["{'a': 1}", 'line 1, column 2: expected a property name in double quotes, found "\'"'],
    ['// comment\n{}', 'line 1, column 1: expected a value, found "/"'],
    ['{"a": tru}', 'line 1, column 7: expected a value, found "t"'],
    ['{"a": 01}', `line 1, column 8: expected ',' or '}', found "1"`],
    ['{} {}', 'line 1, column 4: expected the end of the file after the value, found "{"'],
    ['{"a" 1}', `line 1, column 6: expected ':', found "1"`],
  ])('%j → %s', (text, expected) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(describeJsonSyntaxError(text)).toBe(expected)
  })

  it('accepts every JSON value shape, so it never invents an error', () => {
    const text = JSON.stringify({ a: [1, -2.5e3, true, false, null, 'q"\\/\b\f\n\r\t\u0001é'], b: {}, c: [] })
    expect(describeJsonSyntaxError(text)).toBe('not valid JSON')
  })
})
