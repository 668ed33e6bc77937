import { CODEX_EVENTS, type CodexEvent, isCodexEvent } from '../events.js'
import {
  emptyHookEvents,
  HANDLER_EXPECTING,
  type HandlerType,
  type RawHandlerConfig,
  type RawHookEvents,
  type RawMatcherGroup,
} from './hook-config.js'
import { handlerFromContent, handlerFromSeq, handlerType } from './hook-events-content.js'
import { type Content, invalidType } from './serde-content.js'
import { serde } from './serde-error.js'
import { JsonReader, type SeqAccess } from './serde-json-reader.js'

/**
 * Parses hooks.json exactly as Codex's `serde_json::from_str::<HooksFile>` does, streaming, so the first
 * error (syntax or type) and its position are the ones Codex reports. Throws a SerdeError.
 */
export function parseHooksJson(bytes: Uint8Array): RawHookEvents {
  const reader = new JsonReader(bytes)
  const events = hooksFile(reader)
  reader.end()
  return events
}

function hooksFile(r: JsonReader): RawHookEvents {
  const description = () => r.option(() => r.str('a string'))
  return r.struct({
    expecting: 'struct HooksFile',
    visitMap(map) {
      let events: RawHookEvents | undefined
      let sawDescription = false
      for (let key = map.nextKey(); key !== undefined; key = map.nextKey()) {
        if (key === 'description') {
          if (sawDescription) throw serde.duplicateField(key)
          sawDescription = true
          map.value(description)
        } else if (key === 'hooks') {
          if (events) throw serde.duplicateField(key)
          events = map.value(() => hookEvents(r))
        } else {
          // HooksFile is `deny_unknown_fields`: any other top-level key fails the whole file.
          throw serde.unknownField(key, ['description', 'hooks'])
        }
      }
      return events ?? emptyHookEvents()
    },
    visitSeq(seq) {
      seq.next(description)
      return seq.next(() => hookEvents(r)) ?? emptyHookEvents()
    },
  })
}

function hookEvents(r: JsonReader): RawHookEvents {
  const groups = () => r.seq('a sequence', (seq) => all(seq, () => matcherGroup(r)))
  return r.struct({
    expecting: 'struct HookEventsToml',
    visitMap(map) {
      const events = emptyHookEvents()
      const seen = new Set<CodexEvent>()
      for (let key = map.nextKey(); key !== undefined; key = map.nextKey()) {
        if (!isCodexEvent(key)) {
          map.skipValue()
          continue
        }
        if (seen.has(key)) throw serde.duplicateField(key)
        seen.add(key)
        events[key] = map.value(groups)
      }
      return events
    },
    visitSeq(seq) {
      const events = emptyHookEvents()
      for (const event of CODEX_EVENTS) {
        const value = seq.next(groups)
        if (value === undefined) break
        events[event] = value
      }
      return events
    },
  })
}

function matcherGroup(r: JsonReader): RawMatcherGroup {
  const matcher = () => r.option(() => r.str('a string'))
  const hooks = () => r.seq('a sequence', (seq) => all(seq, () => handler(r)))
  return r.struct({
    expecting: 'struct MatcherGroup',
    visitMap(map) {
      const group: RawMatcherGroup = { matcher: undefined, hooks: [] }
      const seen = new Set<string>()
      for (let key = map.nextKey(); key !== undefined; key = map.nextKey()) {
        if (key !== 'matcher' && key !== 'hooks') {
          map.skipValue()
          continue
        }
        if (seen.has(key)) throw serde.duplicateField(key)
        seen.add(key)
        if (key === 'matcher') group.matcher = map.value(matcher)
        else group.hooks = map.value(hooks)
      }
      return group
    },
    visitSeq(seq) {
      return { matcher: seq.next(matcher), hooks: seq.next(hooks) ?? [] }
    },
  })
}

/**
 * An internally tagged enum: serde buffers the object, taking `type` out as it goes, and only then picks the
 * variant, so a bad `type` value points into the object while a bad field points past the enclosing list.
 */
function handler(r: JsonReader): RawHandlerConfig {
  const handler = r.any<{ type: HandlerType; entries: [string, Content][] } | { type: HandlerType; items: Content[] }>({
    expecting: HANDLER_EXPECTING,
    visitOther(content) {
      // A non-integer number is buffered as a one-entry map, so serde looks in it for the tag.
      if (content.kind === 'map') throw serde.missingField('type')
      throw invalidType(content, HANDLER_EXPECTING)
    },
    visitSeq(seq) {
      const type = seq.next(() => r.str('variant identifier', handlerType))
      if (type === undefined) throw serde.missingField('type')
      const items: Content[] = []
      for (let item = seq.next(() => r.content()); item !== undefined; item = seq.next(() => r.content())) items.push(item)
      return { type, items }
    },
    visitMap(map) {
      let type: HandlerType | undefined
      const entries: [string, Content][] = []
      for (let key = map.nextKey(); key !== undefined; key = map.nextKey()) {
        if (key === 'type') {
          if (type !== undefined) throw serde.duplicateField('type')
          type = map.value(() => r.str('variant identifier', handlerType))
        } else {
          entries.push([key, map.value(() => r.content())])
        }
      }
      if (type === undefined) throw serde.missingField('type')
      return { type, entries }
    },
  })
  return 'entries' in handler ? handlerFromContent(handler.type, handler.entries) : handlerFromSeq(handler.type, handler.items)
}

function all<T>(seq: SeqAccess, read: () => T): T[] {
  const items: T[] = []
  for (let item = seq.next(read); item !== undefined; item = seq.next(read)) items.push(item)
  return items
}
