import type { AppServerHost } from '../app-server-host.js'

/** One client connection as a listener hands it to the server: JSON lines both ways, and a label for the logs. */
export type ClientStreams = Parameters<AppServerHost['connect']>[0]

/** What a listener needs of the server: an `AppServerHost`, or a stand-in that serves connections the same way. */
export type ConnectionHost = Pick<AppServerHost, 'connect'>
