export { OmpSteeringError } from './errors.js'
export { type OmpSteeringPlugin, ompSteering } from './omp-steering.js'
export { type LiveSteeringInput, type OmpSteeringOptions, OmpSteeringSource } from './omp-steering-source.js'
export type { LiveSteerClaim, LiveSteering, OmpImageContent, OmpTextContent, UserMessage } from './omp-types.js'
