/**
 * Server-sent event streams that behave over Node's HTTP server. The SDK's transport answers a GET
 * with a Response whose body it fills later; the Node adapter writes the status and headers with
 * `writeHead`, which Node sends only with the first body bytes — for the GET stream the first
 * keep-alive, 15 s later, so a client waiting for its headers waited 15 s. And the adapter notices a
 * client that dropped a stream only when it writes the next chunk: until the next keep-alive, the
 * session still held its one GET stream and answered a new GET 409 Conflict. Each SSE response is
 * passed through a stream that starts with an SSE comment (the headers go at once; clients skip
 * comments) and is cut when the request's signal aborts (the client went away): the transport's own
 * stream is cancelled then, which frees the session's stream slot at once.
 */

const OPENED = new TextEncoder().encode(': stream open\n\n');

/** `onDrop`: called when the client goes away before the stream ended. */
export function streamAtOnce(response: Response, signal: AbortSignal, onDrop?: () => void): Response {
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  if (onDrop) signal.addEventListener('abort', onDrop, { once: true });
  const start = new TransformStream<Uint8Array, Uint8Array>({ start: (c) => c.enqueue(OPENED) });
  // the pipe's abort cancels the transport's stream (its cancel handler frees the slot) and ends ours
  const body = response.body.pipeThrough(start, { signal });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
