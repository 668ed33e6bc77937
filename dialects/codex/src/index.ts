export * from './events.js'
export * from './types.js'
