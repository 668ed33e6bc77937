// The command line of `npm run drift`.
import { parseArgs } from 'node:util'

export const PARTS = ['codex', 'claude-code', 'schema']

export const USAGE = `npm run drift -- [options]
  --codex <version>   the Codex to check (default: the newest published @openai/codex)
  --sdk <version>     the Agent SDK to check (default: the newest published @anthropic-ai/claude-agent-sdk)
  --dir <folder>      install both there (default: ~/.cache/harness-kernel-drift/<package>@<version>, reused)
  --only <parts>      codex, claude-code or schema (comma-separated; default all three)
  --jobs <n>          scenarios run in parallel per suite (default 2)
  --out <folder>      the report and the suites' runs (default: a fresh temp folder)`

/**
 * @param {string[]} argv  process.argv.slice(2)
 * @returns {{ codex?: string, sdk?: string, dir?: string, only: string[], jobs: number, out?: string, help: boolean }}
 */
export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      codex: { type: 'string' },
      sdk: { type: 'string' },
      dir: { type: 'string' },
      only: { type: 'string', multiple: true },
      jobs: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const only = values.only ? values.only.flatMap((v) => v.split(',')).map((v) => v.trim()) : [...PARTS]
  const unknown = only.filter((part) => !PARTS.includes(part))
  if (unknown.length) throw new TypeError(`--only ${unknown.join(',')}: expected ${PARTS.join(', ')}`)
  const jobs = values.jobs === undefined ? 2 : Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 1) throw new TypeError(`--jobs ${values.jobs}: expected a whole number from 1`)
  for (const name of ['codex', 'sdk'])
    if (values[name] !== undefined && !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(values[name]))
      throw new TypeError(`--${name} ${values[name]}: expected an exact version such as 1.2.3`)
  return { codex: values.codex, sdk: values.sdk, dir: values.dir, only, jobs, out: values.out, help: values.help ?? false }
}
