/**
 * Resumability for stateful Streamable HTTP: every SSE event gets an id; a client that lost its
 * stream reconnects with `Last-Event-ID` and gets what it missed on that stream. In memory and
 * bounded (the oldest events go first): a client that was away longer than the bound re-reads its
 * results instead (the spec lets a server not replay).
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events kept per session, over all its streams. */
export const MAX_EVENTS = 1000;

interface Stored {
  streamId: StreamId;
  message: JSONRPCMessage;
}

export class MemoryEventStore implements EventStore {
  private readonly events = new Map<EventId, Stored>();
  private next = 0;

  constructor(private readonly max = MAX_EVENTS) {}

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // `<stream>_<counter>`: ordered within the store, and the stream is readable from the id alone.
    const id = `${streamId}_${String(++this.next).padStart(10, '0')}`;
    this.events.set(id, { streamId, message });
    if (this.events.size > this.max) this.events.delete(this.events.keys().next().value as EventId);
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
      else if (after && e.streamId === last.streamId) await send(id, e.message);
    }
    return last.streamId;
  }
}
