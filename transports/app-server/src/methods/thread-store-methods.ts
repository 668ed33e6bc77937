import type { MethodHandler } from './method-context.js'
import { threadArchive, threadUnarchive } from './thread-archive.js'
import { threadCompactStart } from './thread-compact.js'
import { threadFork } from './thread-fork.js'
import { threadItemsList } from './thread-items-list.js'
import { threadList } from './thread-list.js'
import { threadLoadedList } from './thread-loaded-list.js'
import { threadSetName } from './thread-name.js'
import { threadRead } from './thread-read.js'
import { threadTurnsList } from './thread-turns-list.js'
import { threadUnsubscribe } from './thread-unsubscribe.js'

/** Threads as the session store keeps them: list, read, page, fork, archive, name, unsubscribe, compact. */
export const THREAD_STORE_METHODS: Readonly<Record<string, MethodHandler>> = {
  'thread/list': threadList,
  'thread/loaded/list': threadLoadedList,
  'thread/read': threadRead,
  'thread/turns/list': threadTurnsList,
  'thread/items/list': threadItemsList,
  'thread/fork': threadFork,
  'thread/archive': threadArchive,
  'thread/unarchive': threadUnarchive,
  'thread/name/set': threadSetName,
  'thread/unsubscribe': threadUnsubscribe,
  'thread/compact/start': threadCompactStart,
}
