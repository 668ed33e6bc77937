import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('the README’s worked example is block-a-tool-call.test.ts, line for line', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const example = /## A worked example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1]
  const test = readFileSync(new URL('./block-a-tool-call.test.ts', import.meta.url), 'utf8')
  expect(example).toBeDefined()
  expect(test.replace(/^\/\/ The worked example.*\n\n/m, '')).toBe(example)
})

it('the README names every export of the package', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const index = readFileSync(new URL('../src/index.ts', import.meta.url), 'utf8')
  const names = [...index.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap(([, list]) =>
    (list ?? '')
      .split(',')
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean),
  )
  expect(names.length).toBeGreaterThan(30)
  expect(names.filter((name) => !readme.includes(name))).toEqual([])
})
