export {
  checkBeforeHooks,
  decidePermission,
  EDIT_TOOLS,
  type PermissionContext,
  type PermissionDecision,
  removedTools,
} from './permission-engine.js'
export { checkPermissionMode, PERMISSION_MODES, parsePermissionMode, permissionModeInForce } from './permission-mode.js'
export { resolvePermissionSettings } from './permission-settings.js'
export { PERMISSION_TEXTS } from './permission-texts.js'
export { type ClaudeSandboxSettings, hostVerdict, resolveSandboxSettings } from './sandbox-settings.js'
export { type SdkPermissionSettings, sdkPermissionSettings } from './sdk-permission-settings.js'
export type { ClaudePermissionSettings, PermissionBehavior, PermissionRule } from './types.js'
