/**
 * `resources/subscribe`: a client subscribed to a file outline or a symbol's source gets
 * `notifications/resources/updated` when that file changes. The resource is read once on subscribe
 * (so an unknown file or symbol, or a path outside the workspace, is refused with the operation's
 * own error); the subscription then listens to the workspace's change feed (the catalog's, after
 * its gate: the same changes the servers, the import graph and the chunk index learn of), reached
 * through the front-end's gateway — in process, or over the daemon's socket. A re-read answers the
 * new content: the catalog re-checks a file's (mtime, size) on every answer.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';

import type { FrontendGateway } from '../host.js';
import { protocolErrorOf } from './error-result.js';
import { type LspgateResource, parseResourceUri, readResource } from './resources.js';

function fileOf(r: LspgateResource): string | undefined {
  if (r.kind === 'outline') return r.file;
  if (r.kind === 'symbol') return r.symbolId.slice(0, r.symbolId.indexOf('::'));
  return undefined;
}

/** Installs subscribe/unsubscribe; returns the disposer that ends every subscription. Call before `connect`. */
export function installSubscriptions(server: McpServer, gateway: FrontendGateway): () => void {
  const watches = new Map<string, () => void>();
  const logger = gateway.context.logger.child('mcp');
  let closed = false;
  const updated = (uri: string) => {
    logger.debug(`resource updated: ${uri}`);
    void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler('resources/subscribe', async (req) => {
    const uri = req.params.uri;
    const r = parseResourceUri(uri);
    if (!r) throw new ResourceNotFoundError(uri);
    const file = fileOf(r);
    if (file === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} has no file to watch: subscribe to a file outline or a symbol`, { uri });
    }
    await readResource(gateway, uri);
    if (!watches.has(uri)) {
      let off: () => void;
      try {
        off = await gateway.watchFile(r.workspace, file, () => updated(uri));
      } catch (e) {
        throw protocolErrorOf(e);
      }
      // unsubscribed or closed while the watch was being set up
      if (closed || watches.has(uri)) off();
      else watches.set(uri, off);
    }
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (req) => {
    watches.get(req.params.uri)?.();
    watches.delete(req.params.uri);
    return {};
  });
  return () => {
    closed = true;
    for (const off of watches.values()) off();
    watches.clear();
  };
}
