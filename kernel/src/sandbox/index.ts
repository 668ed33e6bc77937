export { type BwrapSandboxOptions, bwrapSandbox } from './bwrap-sandbox.js'
export { type BwrapLocation, type BwrapSource, codexBwrap, type FindBwrapOptions, findBwrap } from './find-bwrap.js'
