import { describeJsonType, isJsonObject, type JsonObject } from './json-value.js'

/** Reads a handler's fields by expected type, collecting every type problem instead of stopping at the first. */
export class HandlerFields {
  readonly problems: string[] = []

  constructor(private readonly raw: JsonObject) {}

  string(name: string): string | undefined {
    const value = this.raw[name]
    if (value === undefined || typeof value === 'string') return value
    return this.wrongType(name, 'a string')
  }

  /** A missing or mistyped required field is a problem; the '' returned is never used, as the handler is skipped. */
  requiredString(name: string): string {
    if (this.raw[name] === undefined) {
      this.problems.push(`"${name}" is required`)
      return ''
    }
    return this.string(name) ?? ''
  }

  boolean(name: string): boolean | undefined {
    const value = this.raw[name]
    if (value === undefined || typeof value === 'boolean') return value
    return this.wrongType(name, 'a boolean')
  }

  positiveNumber(name: string): number | undefined {
    const value = this.raw[name]
    if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return value
    return this.wrongType(name, 'a positive number')
  }

  stringArray(name: string): string[] | undefined {
    const value = this.raw[name]
    if (value === undefined) return undefined
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...value]
    return this.wrongType(name, 'an array of strings')
  }

  stringRecord(name: string): Record<string, string> | undefined {
    const value = this.raw[name]
    if (value === undefined) return undefined
    if (isJsonObject(value) && Object.values(value).every((item) => typeof item === 'string'))
      return { ...(value as Record<string, string>) }
    return this.wrongType(name, 'an object of strings')
  }

  object(name: string): Record<string, unknown> | undefined {
    const value = this.raw[name]
    if (value === undefined) return undefined
    if (isJsonObject(value)) return { ...value }
    return this.wrongType(name, 'an object')
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.raw[name]
    if (value === undefined || (values as readonly unknown[]).includes(value)) return value as T | undefined
    return this.wrongType(name, values.map((v) => JSON.stringify(v)).join(' or '))
  }

  url(name: string): string {
    const value = this.requiredString(name)
    if (typeof this.raw[name] === 'string' && !URL.canParse(value))
      this.problems.push(`"${name}" must be a URL, got ${JSON.stringify(value)}`)
    return value
  }

  private wrongType(name: string, expected: string): undefined {
    const value = this.raw[name]
    const got = typeof value === 'string' ? JSON.stringify(value) : describeJsonType(value)
    this.problems.push(`"${name}" must be ${expected}, got ${got}`)
    return undefined
  }
}
