import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ModelCallOptions, type ModelRequest, userMessage } from '@harness-kernel/kernel'
import { afterEach } from 'vitest'

export function request(text = 'hello'): ModelRequest {
  return {
    system: 'You are a test.',
    messages: [userMessage(text)],
    tools: [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  }
}

export function callOptions(overrides: Partial<ModelCallOptions> = {}): ModelCallOptions {
  return { signal: new AbortController().signal, attempt: 1, sessionId: 'session-1', turnId: 'turn-1', step: 1, ...overrides }
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh temp directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scripted-model-'))
  dirs.push(dir)
  return dir
}

/** Writes `text` to `name` in a fresh temp directory and returns its absolute path. */
export function tempFile(name: string, text: string): string {
  const file = join(tempDir(), name)
  writeFileSync(file, text)
  return file
}
