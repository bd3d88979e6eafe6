/**
 * Resumability for stateful Streamable HTTP: every SSE event gets an id; a client that lost its
 * stream reconnects with `Last-Event-ID` and gets what it missed on that stream. In memory and
 * bounded by count and by bytes (the oldest events go first): a client that was away longer than
 * the bound re-reads its results instead (the spec lets a server not replay). Events are kept as
 * their JSON text: a tool result held as objects costs several times its serialized size, and 8
 * sessions × 1,000 results of find_references were most of lspgate's growth under load. Kept as
 * text, they were still the largest live growth of an 8-client soak (12 MB of a 74 MB heap at 4 MiB
 * a session), and 32 sessions could hold 128 MiB: a session keeps 1 MiB, which still replays the
 * last results of a stream dropped a moment ago — what resumability is for.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events kept per session, over all its streams. */
export const MAX_EVENTS = 1000;
/** Bytes of events kept per session (UTF-16 code units × 2, an upper bound of V8's string size). */
export const MAX_EVENT_BYTES = 1024 * 1024;

interface Stored {
  streamId: StreamId;
  json: string;
}

export class MemoryEventStore implements EventStore {
  private readonly events = new Map<EventId, Stored>();
  private next = 0;
  private bytes = 0;

  constructor(
    private readonly max = MAX_EVENTS,
    private readonly maxBytes = MAX_EVENT_BYTES,
  ) {}

  /** Events and bytes held now. */
  get size(): { events: number; bytes: number } {
    return { events: this.events.size, bytes: this.bytes };
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // `<stream>_<counter>`: ordered within the store, and the stream is readable from the id alone.
    const id = `${streamId}_${String(++this.next).padStart(10, '0')}`;
    const json = JSON.stringify(message);
    // An event larger than the whole budget is not kept at all: its client re-asks if it lost it.
    if (json.length * 2 > this.maxBytes) return Promise.resolve(id);
    this.events.set(id, { streamId, json });
    this.bytes += json.length * 2;
    while (this.events.size > this.max || this.bytes > this.maxBytes) this.dropOldest();
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return Promise.resolve(this.events.get(eventId)?.streamId);
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) return '';
    let after = false;
    for (const [id, e] of this.events) {
      if (id === lastEventId) after = true;
      else if (after && e.streamId === last.streamId) await send(id, JSON.parse(e.json) as JSONRPCMessage);
    }
    return last.streamId;
  }

  private dropOldest(): void {
    const first = this.events.entries().next().value;
    if (!first) return;
    this.events.delete(first[0]);
    this.bytes -= first[1].json.length * 2;
  }
}
