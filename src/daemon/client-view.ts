/**
 * What one client of the daemon runs its calls on: its view of the shared gateway
 * (Gateway.forClient), seen by front-ends through a broker narrowed to its own workspaces (no
 * progress of another client's servers), with its calls counted for status, taking their turn at
 * the daemon's fair scheduler (fair-scheduler.ts), and aborted when the client is gone.
 */
import type { DaemonClientStatus } from '../core/daemon-status.js';
import { LspgateError } from '../errors/errors.js';
import { ATTACH } from '../frontends/daemon-client/protocol.js';
import { clientBroker, type FrontendGateway } from '../frontends/host.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ClientQueue } from './fair-scheduler.js';

export interface Client {
  status: DaemonClientStatus;
  view: Gateway;
  /** Calls in flight: running, or waiting for their turn. */
  running: () => number;
  queue: ClientQueue;
}

export interface ClientViewOptions {
  /** Aborted when the client disconnects: its calls still running end with it. */
  lifetime: AbortSignal;
  /** Ids of the calls running now (status counts them). */
  running: Set<number>;
  /** close() releases the view (a one-shot call's own view); else the daemon releases it at detach. */
  closeView?: boolean;
  /** The client's place at the daemon's fair scheduler: its calls wait their turn there. */
  queue?: ClientQueue;
}

let nextCall = 1;

/** `view()` is read at each call: before attach it is undefined and every call answers DAEMON_FAILED. */
export function clientFrontend(core: Gateway, view: () => Gateway | undefined, opts: ClientViewOptions): FrontendGateway {
  // the client's default root counts before its first call opens it: a call that finds that root's
  // server already loading (another client started it) reports it from the start, not only when it
  // changes state (a REPL asking while another window's server indexes printed nothing)
  const roots = () => {
    const v = view();
    return v ? [v.defaultRoot, ...v.workspaces().map((w) => w.root)] : [];
  };
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
        const work = () => v.run(name, input, { ...runOpts, signal });
        return await (opts.queue ? opts.queue.run(work, signal) : work());
      } finally {
        opts.running.delete(id);
      }
    },
  };
}
