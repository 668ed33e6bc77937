// The command line of a suite's run.mjs: `[options] [scenario-filter ...]`.

/**
 * @param {string[]} argv  process.argv.slice(2)
 * @param {{ valued: string[], known?: string[], usage?: string }} spec
 *   valued: the options that take a value (`--out DIR`); known: every option, to reject the others with exit code 2
 *   (without it unknown options are ignored); usage: where the options are listed, for that message
 * @returns {{ flag: (name: string) => boolean, option: (name: string) => string | undefined, filters: string[], jobs: number }}
 */
export function parseCli(argv, { valued, known, usage }) {
  const flag = (name) => argv.includes(name)
  const option = (name) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const takesValue = new Set(valued)
  if (known) {
    const knownSet = new Set([...known, ...valued])
    const unknown = argv.filter((a) => a.startsWith('--') && !knownSet.has(a))
    if (unknown.length) {
      console.log(`unknown option(s) ${unknown.join(' ')}; see ${usage}`)
      process.exit(2)
    }
  }
  const filters = argv.filter((a, i) => !a.startsWith('--') && !takesValue.has(argv[i - 1]))
  const jobs = Math.max(1, Number(option('--jobs') ?? 3))
  return { flag, option, filters, jobs }
}
