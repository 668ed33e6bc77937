import { z } from 'zod'
import { KernelError } from './errors.js'
import type { ToolSpec } from './model.js'
import type { ToolDefinition } from './tool.js'

/** The `tools` service: the tools a model may call, by name. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition<unknown>>()
  #specs: ToolSpec[] | undefined

  register<Input>(tool: ToolDefinition<Input>): void {
    if (this.#tools.has(tool.name)) throw new KernelError(`tool "${tool.name}" is registered twice`)
    this.#tools.set(tool.name, tool as ToolDefinition<unknown>)
    this.#specs = undefined
  }

  get(name: string): ToolDefinition<unknown> | undefined {
    return this.#tools.get(name)
  }

  list(): ToolDefinition<unknown>[] {
    return [...this.#tools.values()]
  }

  /** JSON Schema specs for model requests, computed once per registration change. */
  specs(): ToolSpec[] {
    this.#specs ??= this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema:
        tool.jsonSchema ??
        (z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
    }))
    return this.#specs
  }
}
