/**
 * Keeps running servers in step with the disk: the catalog's watcher reports changes, and each
 * session whose root holds a changed file of its languages is told (workspace/didChangeWatchedFiles).
 */
import path from 'node:path';
import type { FileChange } from '../core/catalog.js';
import type { Logger } from '../util/logger.js';
import { isInside } from '../util/paths.js';
import type { Broker } from './types.js';

export function notifyServersOfChanges(broker: Broker, changes: FileChange[], logger: Logger): void {
  for (const session of broker.existing()) {
    const mine = changes.filter((c) => isInside(session.root, c.path) && session.entry.extensions.includes(path.extname(c.path)));
    if (!mine.length) continue;
    session.notifyFilesChanged(mine);
    // didChangeWatchedFiles does not reach a document the server has open: it keeps answering from
    // the text it was given (tsserver kept a definition's old line after the file was edited on
    // disk, until an operation happened to re-sync that file). Open documents are re-synced.
    for (const c of mine) {
      if (!session.getDocument(c.path)) continue;
      const sync = c.type === 'deleted' ? session.closeDocument(c.path) : session.syncDocument(c.path).then(() => undefined);
      sync.catch((e: unknown) => logger.debug(`could not re-sync ${c.path} after a change on disk: ${(e as Error).message}`));
    }
  }
}
