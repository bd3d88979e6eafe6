/**
 * The REPL's backend for the gateway it was given: an in-process Gateway talks to its own servers;
 * a RemoteGateway (attached to `lspgate daemon`) asks the daemon, which answers for the sessions of
 * this client's workspaces only.
 */
import { LspgateError } from '../../errors/errors.js';
import { Gateway } from '../../gateway/gateway.js';
import { RemoteGateway } from '../daemon-client/remote-gateway.js';
import type { FrontendGateway } from '../host.js';
import type { ReplBackend } from './backend-types.js';
import { catalogNames, rawRequest, serversView } from './lsp-access.js';
import { RemoteReplBackend } from './remote-backend.js';
import { TraceTap } from './trace.js';

export function replBackendFor(gateway: FrontendGateway, write: (line: string) => void): ReplBackend {
  if (gateway instanceof Gateway) return localBackend(gateway, write);
  if (gateway instanceof RemoteGateway) return new RemoteReplBackend(gateway, write);
  return unsupportedBackend();
}

function localBackend(gateway: Gateway, write: (line: string) => void): ReplBackend {
  const tap = new TraceTap(gateway.context.broker, write);
  return {
    exitHelp: 'Stop every server and exit',
    trace: {
      get enabled() {
        return tap.enabled;
      },
      on: async () => tap.on(),
      off: async () => tap.off(),
      sync: () => tap.sync(),
    },
    raw: (req) => rawRequest(gateway, req),
    servers: async () => serversView(gateway, false),
    symbolNames: (opts) => catalogNames(gateway, opts),
  };
}

/** A gateway that is neither: say so rather than answer with empty lists. */
function unsupportedBackend(): ReplBackend {
  const no = (what: string) => Promise.reject(new LspgateError('NOT_SUPPORTED', `${what} needs an in-process gateway or the lspgate daemon`));
  return {
    exitHelp: 'Exit',
    trace: { enabled: false, on: () => no('.trace'), off: async () => undefined, sync: () => undefined },
    raw: () => no('.raw'),
    servers: () => no('.servers'),
    symbolNames: async () => [],
  };
}
