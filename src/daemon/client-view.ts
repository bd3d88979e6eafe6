/**
 * What one client of the daemon runs its calls on: its view of the shared gateway
 * (Gateway.forClient), seen by front-ends through a broker narrowed to its own workspaces (no
 * progress of another client's servers), with its calls counted for status and aborted when the
 * client is gone.
 */
import { LspgateError } from '../errors/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { DaemonClientStatus } from '../core/daemon-status.js';
import { clientBroker, type FrontendGateway } from '../frontends/host.js';
import { ATTACH } from '../frontends/daemon-client/protocol.js';

export interface Client {
  status: DaemonClientStatus;
  view: Gateway;
  running: () => number;
}

export interface ClientViewOptions {
  /** Aborted when the client disconnects: its calls still running end with it. */
  lifetime: AbortSignal;
  /** Ids of the calls running now (status counts them). */
  running: Set<number>;
  /** close() releases the view (a one-shot call's own view); else the daemon releases it at detach. */
  closeView?: boolean;
}

let nextCall = 1;

/** `view()` is read at each call: before attach it is undefined and every call answers DAEMON_FAILED. */
export function clientFrontend(core: Gateway, view: () => Gateway | undefined, opts: ClientViewOptions): FrontendGateway {
  const roots = () => view()?.workspaces().map((w) => w.root) ?? [];
  return {
    get defaultRoot() {
      return view()?.defaultRoot ?? core.defaultRoot;
    },
    context: { ...core.context, broker: clientBroker(core.context.broker, roots) },
    operations: () => core.operations(),
    close: async () => {
      if (opts.closeView) await view()?.close();
    },
    watchFile: (workspace, file, onChange) => {
      const v = view();
      if (!v) return Promise.reject(new LspgateError('DAEMON_FAILED', `send ${ATTACH} before any operation`, { reason: 'not_attached' }));
      return v.watchFile(workspace, file, onChange);
    },
    run: async (name, input, runOpts) => {
      const v = view();
      if (!v) throw new LspgateError('DAEMON_FAILED', `send ${ATTACH} before any operation`, { reason: 'not_attached' });
      const id = nextCall++;
      opts.running.add(id);
      try {
        const signal = runOpts?.signal ? AbortSignal.any([runOpts.signal, opts.lifetime]) : opts.lifetime;
        return await v.run(name, input, { ...runOpts, signal });
      } finally {
        opts.running.delete(id);
      }
    },
  };
}
