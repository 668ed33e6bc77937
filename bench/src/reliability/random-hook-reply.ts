import type { Prng } from './prng.js'

/** What a hook process gave back: raw bytes (possibly not UTF-8) and how it ended. */
export interface RandomHookReply {
  stdout: Uint8Array
  stderr: Uint8Array
  /** null: killed by a signal. */
  exitCode: number | null
  timedOut: boolean
  /** A short name of how stdout was made, to tell which kind broke something. */
  kind: string
}

/** Fields either dialect reads from a reply, at the top level and in `hookSpecificOutput` / its `decision`. */
const TOP_FIELDS = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput']
const SPECIFIC_FIELDS = [
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
  'updatedInput',
  'additionalContext',
  'decision',
  'updatedToolOutput',
  'updatedMCPToolOutput',
]
const DECISION_FIELDS = ['behavior', 'updatedInput', 'updatedPermissions', 'message', 'interrupt']
const WORDS = ['approve', 'block', 'allow', 'deny', 'ask', 'defer', 'Block', '', 'PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit']
const STRINGS = [
  '',
  ' ',
  'reason',
  'x'.repeat(50_000),
  '\u0000',
  '\ud800',
  'é€𝄞',
  '{"nested":"json"}',
  '\n\n',
  '…[truncated: 9 bytes in all;',
]
const NUMBERS = [0, -0, 1, -1, 2, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 123456789.123]
/** Numbers JSON can hold but JavaScript cannot keep exactly (or at all: 1e400 parses as Infinity). */
const NUMBER_LITERALS = ['1e400', '-1e400', '123456789012345678901234567890', '0.0000000000000000000000000001', '-0.0']

function randomValue(rng: Prng, depth: number): unknown {
  switch (rng.int(depth > 3 ? 5 : 7)) {
    case 0:
      return rng.pick(STRINGS)
    case 1:
      return rng.pick(NUMBERS)
    case 2:
      return rng.chance(0.5)
    case 3:
      return null
    case 4:
      return rng.pick(WORDS)
    case 5:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1))
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [rng.pick([...TOP_FIELDS, ...SPECIFIC_FIELDS, 'x']), randomValue(rng, depth + 1)]),
      )
  }
}

/** A value of the kind the field takes (a word, a string, a boolean) or of any other type. */
function fieldValue(rng: Prng, field: string, depth: number): unknown {
  if (rng.chance(0.4)) return randomValue(rng, depth)
  if (field === 'hookSpecificOutput') return randomObject(rng, SPECIFIC_FIELDS, depth + 1)
  if (field === 'decision' && depth > 0) return randomObject(rng, DECISION_FIELDS, depth + 1)
  if (field === 'continue' || field === 'suppressOutput' || field === 'interrupt') return rng.chance(0.5)
  if (field === 'updatedInput') return { command: rng.pick(['true', 'echo changed', '']), extra: randomValue(rng, depth + 1) }
  return rng.chance(0.5) ? rng.pick(WORDS) : rng.pick(STRINGS)
}

function randomObject(rng: Prng, fields: readonly string[], depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const field of fields) if (rng.chance(0.35)) object[field] = fieldValue(rng, field, depth)
  if (rng.chance(0.1)) object.unknownField = randomValue(rng, depth)
  return object
}

function deeplyNested(rng: Prng): string {
  // Past about 10,000 levels JSON.stringify overflows the stack; 100,000 is rare because parsing it takes ~35 ms.
  const depth = rng.chance(0.05) ? 100_000 : rng.pick([100, 2_000, 12_000])
  const [open, close] = rng.chance(0.5) ? ['[', ']'] : ['{"a":', '}']
  const inner = `${open.repeat(depth)}1${close.repeat(depth)}`
  return rng.chance(0.5) ? inner : `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":${inner}},"reason":${inner}}`
}

function randomBytes(rng: Prng, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => rng.int(256))
}

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8')

/** Bytes that are not valid UTF-8 (a lone continuation byte, a cut 3-byte sequence, an overlong form, 0xff). */
const INVALID_UTF8 = [Uint8Array.of(0x80), Uint8Array.of(0xe2, 0x82), Uint8Array.of(0xc0, 0xaf), Uint8Array.of(0xff, 0xfe)]

function withInvalidUtf8(rng: Prng, text: string): Uint8Array {
  const bytes = utf8(text)
  const at = rng.int(bytes.length + 1)
  return Buffer.concat([bytes.subarray(0, at), rng.pick(INVALID_UTF8), bytes.subarray(at)])
}

function mutate(rng: Prng, text: string): string {
  let out = text
  for (let n = 1 + rng.int(4); n > 0; n--) {
    const at = rng.int(out.length + 1)
    const junk = rng.pick(['"', '{', '}', ',', ':', '\\', 'null', '\u0000', ']', 'é'])
    out = rng.chance(0.5) ? out.slice(0, at) + junk + out.slice(at) : out.slice(0, at) + out.slice(at + 1 + rng.int(3))
  }
  return out
}

const STDOUT_KINDS: Record<string, (rng: Prng, reply: string) => Uint8Array> = {
  empty: () => new Uint8Array(0),
  whitespace: (rng) => utf8(rng.pick([' ', '\n', '\t \r\n', '\u00a0', '\ufeff'])),
  plainText: (rng) => utf8(rng.pick(['hello', 'no json here', 'x'.repeat(20_000), '[not json', '{ not json'])),
  randomBytes: (rng) => randomBytes(rng, rng.int(4096)),
  json: (_, reply) => utf8(reply),
  truncatedJson: (rng, reply) => utf8(reply.slice(0, rng.int(reply.length))),
  mutatedJson: (rng, reply) => utf8(mutate(rng, reply)),
  deepNesting: (rng) => utf8(deeplyNested(rng)),
  notAnObject: (rng) => utf8(rng.pick(['[]', '[{"decision":"block"}]', '42', '"block"', 'null', 'true', ...NUMBER_LITERALS])),
  hugeNumbers: (rng) =>
    utf8(`{"continue":${rng.pick(NUMBER_LITERALS)},"decision":${rng.pick(NUMBER_LITERALS)},"reason":${rng.pick(NUMBER_LITERALS)}}`),
  surrounded: (rng, reply) =>
    utf8(rng.pick([`text before ${reply}`, `${reply} trailing`, `${reply}${reply}`, `${reply}\n{"decision":"block"}`])),
  invalidUtf8: (rng, reply) => withInvalidUtf8(rng, reply),
  byteOrderMark: (_, reply) => utf8(`\ufeff${reply}`),
}
const KIND_NAMES = Object.keys(STDOUT_KINDS)

function randomStderr(rng: Prng): Uint8Array {
  switch (rng.int(5)) {
    case 0:
      return new Uint8Array(0)
    case 1:
      return randomBytes(rng, rng.int(2048))
    case 2:
      return withInvalidUtf8(rng, 'blocked because')
    case 3:
      return utf8(rng.pick(STRINGS))
    default:
      return utf8('not allowed\n')
  }
}

function randomExit(rng: Prng): { exitCode: number | null; timedOut: boolean } {
  const roll = rng.next()
  if (roll < 0.45) return { exitCode: 0, timedOut: false }
  if (roll < 0.7) return { exitCode: 2, timedOut: false }
  if (roll < 0.8) return { exitCode: 1, timedOut: false }
  if (roll < 0.92) return { exitCode: rng.pick([3, 127, 126, 130, 255]), timedOut: false }
  if (roll < 0.96) return { exitCode: null, timedOut: false }
  return { exitCode: null, timedOut: true }
}

/** One random hook reply: a reply object with right and wrong types, then written out in one of many broken ways. */
export function randomHookReply(rng: Prng): RandomHookReply {
  const kind = rng.pick(KIND_NAMES)
  const reply = JSON.stringify(randomObject(rng, TOP_FIELDS, 0))
  return { stdout: STDOUT_KINDS[kind]!(rng, reply), stderr: randomStderr(rng), ...randomExit(rng), kind }
}

/** How the process runner hands output to the dialects: decoded as UTF-8, invalid bytes replaced. */
export const decoded = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8')
