export { pidIn, processAlive, untilExited, WAIT_BOUND_MS, waitForExit, waitForPids, waitUntil } from '@harness-kernel/testing'
