/**
 * `resources/subscribe`: a client subscribed to a file outline or a symbol's source gets
 * `notifications/resources/updated` when that file changes on disk. The resource is read once on
 * subscribe (so an unknown file or symbol, or a path outside the workspace, is refused with the
 * operation's own error); the file is then watched through its directory, which also sees editors
 * that save by writing a new file and renaming it over the old one. A re-read answers the new
 * content: the catalog re-checks a file's (mtime, size) on every answer.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type McpServer } from '@modelcontextprotocol/server';
import type { FrontendGateway } from '../host.js';
import { protocolErrorOf } from './error-result.js';
import { parseResourceUri, readResource, type LspgateResource } from './resources.js';

/** Saves come as several events (truncate, write, rename): one notification per burst. */
const DEBOUNCE_MS = 100;

function fileOf(r: LspgateResource): string | undefined {
  if (r.kind === 'outline') return r.file;
  if (r.kind === 'symbol') return r.symbolId.slice(0, r.symbolId.indexOf('::'));
  return undefined;
}

async function workspaceRoot(gateway: FrontendGateway, workspace: string): Promise<string> {
  try {
    const { result } = await gateway.run('list_repos', { workspace });
    return (result as unknown as { _meta: { workspace: string } })._meta.workspace;
  } catch (e) {
    throw protocolErrorOf(e);
  }
}

class FileWatch {
  private readonly watcher: FSWatcher;
  private timer: NodeJS.Timeout | undefined;

  constructor(abs: string, onChange: () => void) {
    const base = path.basename(abs);
    this.watcher = watch(path.dirname(abs), { persistent: false }, (_event, name) => {
      if (name !== null && name.toString() !== base) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(onChange, DEBOUNCE_MS);
      this.timer.unref();
    });
    this.watcher.on('error', () => this.close());
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher.close();
  }
}

/** Installs subscribe/unsubscribe; returns the disposer that stops every watch. Call before `connect`. */
export function installSubscriptions(server: McpServer, gateway: FrontendGateway): () => void {
  const watches = new Map<string, FileWatch>();
  const logger = gateway.context.logger.child('mcp');
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
      const abs = path.resolve(await workspaceRoot(gateway, r.workspace), file);
      watches.set(uri, new FileWatch(abs, () => updated(uri)));
    }
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (req) => {
    watches.get(req.params.uri)?.close();
    watches.delete(req.params.uri);
    return {};
  });
  return () => {
    for (const w of watches.values()) w.close();
    watches.clear();
  };
}
