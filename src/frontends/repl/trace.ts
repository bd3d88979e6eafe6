/**
 * `.trace on|off`: raw LSP traffic of every session, existing and future: existing ones when
 * tracing starts, new ones from the broker's session-created event, before their `initialize`
 * (a broker without the event is polled).
 */
import type { Broker } from '../../broker/types.js';
import type { LspSession, TraceEvent } from '../../lsp/types.js';
import type { WireTraceEvent } from '../daemon-client/repl-protocol.js';

const MAX_PAYLOAD_CHARS = 2000;

export class TraceTap {
  private readonly attached = new Set<LspSession>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  enabled = false;

  constructor(
    private readonly broker: Broker,
    private readonly write: (line: string) => void,
  ) {}

  on(): void {
    this.enabled = true;
    this.sync();
    if (this.broker.onSessionCreated) {
      this.unsubscribe ??= this.broker.onSessionCreated((s) => this.attach(s));
    } else {
      this.timer ??= setInterval(() => this.sync(), 250);
      this.timer.unref();
    }
  }

  off(): void {
    this.enabled = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const s of this.attached) s.onTrace(undefined);
    this.attached.clear();
  }

  /** Attaches to sessions that appeared since the last look. */
  sync(): void {
    if (!this.enabled) return;
    for (const s of this.broker.existing()) this.attach(s);
  }

  private attach(s: LspSession): void {
    if (!this.enabled || this.attached.has(s)) return;
    this.attached.add(s);
    s.onTrace((e) => this.write(formatTrace(s.serverId, e)));
  }
}

export function clipTrace(e: TraceEvent): WireTraceEvent {
  const { payload, ...rest } = e;
  if (payload === undefined) return rest;
  const s = JSON.stringify(payload) ?? '';
  return { ...rest, payload: s.length > MAX_PAYLOAD_CHARS ? `${s.slice(0, MAX_PAYLOAD_CHARS)}… (${s.length} chars)` : s };
}

export function formatTrace(serverId: string, e: TraceEvent): string {
  return formatWireTrace(serverId, clipTrace(e));
}

export function formatWireTrace(serverId: string, e: WireTraceEvent): string {
  const arrow = e.direction === 'send' ? '→' : '←';
  const id = e.id === undefined ? '' : ` #${e.id}`;
  const took = e.durationMs === undefined ? '' : ` ${e.durationMs.toFixed(1)} ms`;
  const payload = e.payload === undefined ? '' : ` ${e.payload}`;
  return `[trace ${serverId}] ${arrow} ${e.kind}${e.method ? ` ${e.method}` : ''}${id}${took}${payload}`;
}
