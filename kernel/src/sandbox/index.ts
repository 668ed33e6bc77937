export { type BwrapSandboxOptions, bwrapSandbox } from './bwrap-sandbox.js'
export { type FilteringProxy, type FilteringProxyOptions, NETWORK_BLOCKED, startFilteringProxy } from './filtering-proxy.js'
export { type BwrapLocation, type BwrapSource, codexBwrap, type FindBwrapOptions, findBwrap } from './find-bwrap.js'
