/** Tap stages: guards run before ordinary taps, observers after. Pass as `{ name, stage }`. */
export const STAGE_GUARD = -100
export const STAGE_DEFAULT = 0
export const STAGE_OBSERVE = 1000
