/**
 * Wraps the connection's reader and writer to (1) report every message to the trace listener
 * (`.trace on` in the REPL) with request durations, and (2) drop notification floods.
 * vscode-jsonrpc queues every parsed message and handles one per setImmediate, so a server that
 * floods notifications grows that queue without bound; above `maxNotificationsPerSec` further
 * notifications in the same second are dropped (counted), except the ones readiness depends on.
 */
import { type DataCallback, type Disposable, Message, type MessageReader, type MessageWriter } from 'vscode-jsonrpc/node';

import type { TraceEvent } from './types.js';

export interface TapOptions {
  trace: () => ((e: TraceEvent) => void) | undefined;
  maxNotificationsPerSec: number;
  /** Notifications never dropped (readiness signals). */
  keep: (msg: { method: string; params?: unknown }) => boolean;
}

export class MessageTap {
  readonly sentAt = new Map<number | string, { method: string; at: number }>();
  dropped = 0;
  received = 0;
  private windowStart = 0;
  private windowCount = 0;

  constructor(private readonly opts: TapOptions) {}

  reader(inner: MessageReader): MessageReader {
    return {
      onError: inner.onError,
      onClose: inner.onClose,
      onPartialMessage: inner.onPartialMessage,
      dispose: () => inner.dispose(),
      listen: (callback: DataCallback): Disposable =>
        inner.listen((msg) => {
          this.received++;
          if (Message.isNotification(msg) && this.flooding() && !this.opts.keep(msg)) {
            this.dropped++;
            return;
          }
          this.traceReceived(msg);
          callback(msg);
        }),
    };
  }

  writer(inner: MessageWriter): MessageWriter {
    return {
      onError: inner.onError,
      onClose: inner.onClose,
      end: () => inner.end(),
      dispose: () => inner.dispose(),
      write: (msg: Message) => {
        this.traceSent(msg);
        return inner.write(msg);
      },
    };
  }

  private flooding(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    return ++this.windowCount > this.opts.maxNotificationsPerSec;
  }

  private traceSent(msg: Message): void {
    if (Message.isRequest(msg) && msg.id !== null) {
      // kept only while someone traces, and bounded: a hanging server must not grow it
      if (this.opts.trace() && this.sentAt.size < 10_000) this.sentAt.set(msg.id, { method: msg.method, at: Date.now() });
    }
    const listener = this.opts.trace();
    if (!listener) return;
    if (Message.isRequest(msg)) listener({ direction: 'send', kind: 'request', method: msg.method, id: msg.id ?? undefined, payload: msg.params });
    else if (Message.isNotification(msg)) listener({ direction: 'send', kind: 'notification', method: msg.method, payload: msg.params });
    else if (Message.isResponse(msg))
      listener({ direction: 'send', kind: msg.error ? 'error' : 'response', id: msg.id ?? undefined, payload: msg.error ?? msg.result });
  }

  private traceReceived(msg: Message): void {
    const listener = this.opts.trace();
    if (Message.isResponse(msg) && msg.id !== null) {
      const sent = this.sentAt.get(msg.id);
      this.sentAt.delete(msg.id);
      if (!listener) return;
      listener({
        direction: 'receive',
        kind: msg.error ? 'error' : 'response',
        id: msg.id,
        method: sent?.method,
        durationMs: sent ? Date.now() - sent.at : undefined,
        payload: msg.error ?? msg.result,
      });
      return;
    }
    if (!listener) return;
    if (Message.isRequest(msg)) listener({ direction: 'receive', kind: 'request', method: msg.method, id: msg.id ?? undefined, payload: msg.params });
    else if (Message.isNotification(msg)) listener({ direction: 'receive', kind: 'notification', method: msg.method, payload: msg.params });
  }
}
