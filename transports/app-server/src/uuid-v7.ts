/** A UUIDv7 (time-ordered), as Codex uses for thread and turn ids: the kernel's, which makes its turn ids the same way. */
export { uuidv7 } from '@harness-kernel/kernel'
