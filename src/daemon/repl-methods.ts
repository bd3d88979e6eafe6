/**
 * The daemon's REPL methods (repl-protocol.ts) on one client connection. Each answers for the
 * sessions at or under a root the client holds (its --root and the workspaces it opened), never
 * another client's. `lspgate/trace` subscribes the client to the LSP traffic of those sessions: the
 * traffic of the shared session, whichever client's call (or the daemon's background work) caused
 * it. One TraceHub per daemon owns the sessions' single trace listener and fans events out.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';

import type { Broker } from '../broker/types.js';
import { LspgateError } from '../errors/errors.js';
import { ATTACH } from '../frontends/daemon-client/protocol.js';
import {
  RAW,
  RawParams,
  SERVERS,
  SYMBOL_NAMES,
  TRACE,
  type TraceDropped,
  type TraceNotification,
  TraceParams,
} from '../frontends/daemon-client/repl-protocol.js';
import { catalogNames, heldRoots, isUnder, rawRequest, serversView } from '../frontends/repl/lsp-access.js';
import { clipTrace } from '../frontends/repl/trace.js';
import type { Gateway } from '../gateway/gateway.js';
import type { LspSession, TraceEvent } from '../lsp/types.js';
import type { Logger } from '../util/logger.js';
import { rpcError } from './rpc-error.js';
import { TraceLimiter } from './trace-limit.js';

interface Subscriber {
  wants(session: LspSession): boolean;
  send(session: LspSession, e: TraceEvent): void;
  /** Tracing ended for this client. */
  stop(): void;
}

/** The one trace listener of every session of a broker, while any client traces. */
class TraceHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly traced = new Map<string, LspSession>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly broker: Broker) {}

  add(s: Subscriber): void {
    this.subscribers.add(s);
    for (const session of this.broker.existing()) this.attach(session);
    this.unsubscribe ??= this.broker.onSessionCreated?.((session) => this.attach(session));
  }

  remove(s: Subscriber): void {
    s.stop();
    if (!this.subscribers.delete(s) || this.subscribers.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const session of this.traced.values()) session.onTrace(undefined);
    this.traced.clear();
  }

  private attach(session: LspSession): void {
    if (this.subscribers.size === 0) return;
    this.traced.set(`${session.serverId}\0${session.root}`, session);
    session.onTrace((e) => {
      for (const s of this.subscribers) if (s.wants(session)) s.send(session, e);
    });
  }
}

const hubs = new WeakMap<Broker, TraceHub>();

function hubOf(broker: Broker): TraceHub {
  let hub = hubs.get(broker);
  if (!hub) hubs.set(broker, (hub = new TraceHub(broker)));
  return hub;
}

/** Where a client's trace goes and how fast (trace-limit.ts). */
export interface TraceOutlet {
  perSecond: number;
  /** Bytes the client's socket has not sent yet. */
  backlog: () => number;
}

/** Sends `lspgate/trace` to this client for sessions at or under a root it holds, within its outlet's bound. */
function traceSubscriber(connection: MessageConnection, view: () => Gateway | undefined, logger: Logger, outlet: TraceOutlet): Subscriber {
  const notify = (note: TraceNotification | TraceDropped) => {
    try {
      connection.sendNotification(TRACE, note).catch((err: unknown) => logger.debug('trace notification not sent', err));
    } catch (err) {
      logger.debug('trace notification not sent', err);
    }
  };
  const limiter = new TraceLimiter(outlet.perSecond, outlet.backlog, (dropped) => notify({ dropped, per_second: outlet.perSecond }));
  return {
    wants: (session) => {
      const v = view();
      return v !== undefined && isUnder(session.root, heldRoots(v));
    },
    send: (session, e) => {
      if (limiter.admit()) notify({ server: session.serverId, root: session.root, event: clipTrace(e) });
    },
    stop: () => limiter.close(),
  };
}

/** Registers the REPL methods on a client's connection; `view` is the client's gateway once attached. */
export function registerReplMethods(connection: MessageConnection, view: () => Gateway | undefined, core: Gateway, logger: Logger, outlet: TraceOutlet): void {
  const attached = (): Gateway => {
    const v = view();
    if (!v) throw new LspgateError('DAEMON_FAILED', `send ${ATTACH} before any operation`, { reason: 'not_attached' });
    return v;
  };
  const handle =
    <T>(fn: (params: unknown) => Promise<T> | T) =>
    async (params: unknown): Promise<T> => {
      try {
        return await fn(params);
      } catch (e) {
        throw rpcError(e);
      }
    };
  connection.onRequest(
    RAW,
    handle((params) => {
      const p = RawParams.safeParse(params);
      if (!p.success) throw new LspgateError('INVALID_INPUT', `bad ${RAW} params: ${p.error.message}`);
      return rawRequest(attached(), { ...p.data, params: p.data.params ?? null }, { confine: true });
    }),
  );
  connection.onRequest(
    SERVERS,
    handle(() => serversView(attached(), true)),
  );
  connection.onRequest(
    SYMBOL_NAMES,
    handle(() => catalogNames(attached(), { stored: true })),
  );
  const hub = hubOf(core.context.broker);
  const subscriber = traceSubscriber(connection, view, logger, outlet);
  connection.onRequest(
    TRACE,
    handle((params) => {
      const p = TraceParams.safeParse(params);
      if (!p.success) throw new LspgateError('INVALID_INPUT', `bad ${TRACE} params: ${p.error.message}`);
      attached();
      if (p.data.on) hub.add(subscriber);
      else hub.remove(subscriber);
      return { on: p.data.on };
    }),
  );
  const stop = () => hub.remove(subscriber);
  connection.onClose(stop);
  connection.onDispose(stop);
}
