/**
 * A CommonJS package's exports however it was loaded: Node names them in the namespace of `import()`, while a bundle
 * that splits it into a chunk of its own (the CLI's) hands them over as `default` alone.
 */
export async function commonJs<T extends object>(loading: Promise<T>): Promise<T> {
  const namespace = await loading
  const exported = (namespace as { default?: unknown }).default
  const onlyDefault = Object.keys(namespace).length === 1 && typeof exported === 'object' && exported !== null
  return onlyDefault ? (exported as T) : namespace
}
