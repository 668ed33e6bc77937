/** `--store` / `HARNESS_STORE`: what a spec may be. */
export const STORE_USAGE = 'postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://…); leave it out for JSONL files in --sessions-dir'
