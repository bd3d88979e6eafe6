/**
 * Keeps running servers in step with the disk: a listener on a workspace catalog's change feed. Each
 * session whose root holds a changed file of its languages is told (workspace/didChangeWatchedFiles),
 * and a document it has open is re-synced.
 */
import path from 'node:path';

import type { CatalogChange, CatalogChanges } from '../core/catalog.js';
import type { Logger } from '../util/logger.js';
import { isInside } from '../util/paths.js';
import type { Broker } from './types.js';

const LSP_TYPE = { added: 'created', changed: 'changed', removed: 'deleted' } as const;

/** The feed listener that tells the broker's sessions of every change (a reset changes nothing on disk). */
export function serverNotifier(broker: Broker, logger: Logger): (batch: CatalogChanges) => void {
  // a server entry that took a syntax entry's place changed nothing the servers read
  return (batch) =>
    notifyServersOfChanges(
      broker,
      batch.changes.filter((c) => !c.entryOnly),
      logger,
    );
}

export function notifyServersOfChanges(broker: Broker, changes: readonly CatalogChange[], logger: Logger): void {
  if (changes.length === 0) return;
  for (const session of broker.existing()) {
    const mine = changes.filter((c) => isInside(session.root, c.path) && session.entry.extensions.includes(path.extname(c.path)));
    if (!mine.length) continue;
    session.notifyFilesChanged(mine.map((c) => ({ path: c.path, type: LSP_TYPE[c.kind] })));
    // didChangeWatchedFiles does not reach a document the server has open: it keeps answering from
    // the text it was given (tsserver kept a definition's old line after the file was edited on
    // disk, until an operation happened to re-sync that file). Open documents are re-synced.
    for (const c of mine) {
      if (!session.getDocument(c.path)) continue;
      const sync = c.kind === 'removed' ? session.closeDocument(c.path) : session.syncDocument(c.path).then(() => undefined);
      sync.catch((e: unknown) => logger.debug(`could not re-sync ${c.path} after a change on disk: ${(e as Error).message}`));
    }
  }
}
