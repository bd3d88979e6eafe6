/**
 * The REPL's backend attached to the daemon: `.raw`, `.trace`, `.servers` and completion names
 * through the daemon's REPL methods (daemon-client/repl-protocol.ts), for the sessions of this client's
 * workspaces. Trace lines arrive as `lspgate/trace` notifications on the same connection as the
 * answers, so a traced call's lines print before its answer.
 */
import type { RemoteGateway } from '../daemon-client/remote-gateway.js';
import { RAW, SERVERS, SYMBOL_NAMES, TRACE, type TraceDropped, type TraceNotification } from '../daemon-client/repl-protocol.js';
import type { ReplBackend, ReplTrace } from './backend-types.js';
import type { RawAnswer, RawRequest, ServersView } from './lsp-access.js';
import { formatWireTrace } from './trace.js';

export class RemoteReplBackend implements ReplBackend {
  readonly exitHelp = "Detach from the lspgate daemon and exit (the daemon's servers keep running)";
  readonly trace: ReplTrace;

  constructor(
    private readonly remote: RemoteGateway,
    write: (line: string) => void,
  ) {
    let enabled = false;
    remote.onNotification(TRACE, (p) => {
      const n = p as Partial<TraceNotification & TraceDropped> | undefined;
      if (!enabled || !n) return;
      if (n.event && n.server) write(formatWireTrace(n.server, n.event));
      else if (typeof n.dropped === 'number')
        write(`[trace] ${n.dropped} line(s) dropped (the daemon sends at most ${n.per_second} a second to a client, fewer when it falls behind)`);
    });
    // Set first: a line the daemon sends right after subscribing may arrive before its answer.
    const set = async (on: boolean) => {
      enabled = on;
      try {
        await remote.call(TRACE, { on });
      } catch (e) {
        if (on) enabled = false;
        throw e;
      }
    };
    this.trace = {
      get enabled() {
        return enabled;
      },
      on: () => set(true),
      off: () => set(false),
      sync: () => undefined,
    };
  }

  raw(req: RawRequest): Promise<RawAnswer> {
    return this.remote.call<RawAnswer>(RAW, req);
  }

  servers(): Promise<ServersView> {
    return this.remote.call<ServersView>(SERVERS, {});
  }

  /** The daemon answers a stored catalog's names itself (repl-methods.ts). */
  symbolNames(): Promise<string[]> {
    return this.remote.call<string[]>(SYMBOL_NAMES, {});
  }
}
