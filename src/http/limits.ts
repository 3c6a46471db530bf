/**
 * The HTTP face's bounds, in one place: what one request may send, how long a client may take to
 * send it, how many streams one agent may hold open. A slow or greedy client meets them, never
 * the others.
 */

/** The largest body a request may send (1 MiB): 413 past it. */
export const BODY_MAX = 1024 * 1024;
/** The largest header block (16 KiB): 431 past it. */
export const HEADERS_MAX = 16 * 1024;
/** How long a client may take to send its headers. */
export const HEADERS_MS = 10_000;
/** How long a client may take to send its whole request (headers and body). */
export const REQUEST_MS = 30_000;
/** How long an idle kept-alive connection stays open between requests. */
export const KEEP_ALIVE_MS = 5_000;
/** Streams of changes one agent may hold open at once. */
export const STREAMS_PER_AGENT = 8;
/** A comment on a quiet stream this often, so that proxies do not close it. */
export const STREAM_PING_MS = 15_000;
