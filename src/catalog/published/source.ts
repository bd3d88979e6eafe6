/**
 * The catalog's side of `--index`: before its first walk a workspace takes the published entries
 * of its repository (reader.ts), and its answer says where they came from. An index that cannot
 * be read (unreachable, no such repository, another index version) is said once, coded, in the
 * next answer's `_meta.warnings` and in the log, and the local catalog answers alone.
 */
import type { FileEntry } from '../../core/catalog.js';
import { toLspgateError } from '../../errors/errors.js';
import { headCommit } from '../../util/git.js';
import type { Logger } from '../../util/logger.js';
import { INDEX_VERSION } from '../store.js';
import { readPublished } from './reader.js';
import { repositoryName } from './repository.js';
import { redactText, redactUrl } from './url.js';

/** The entries at the first call (the first build), undefined at every later one: later builds keep what the catalog has. */
export type PublishedSource = () => Promise<ReadonlyMap<string, FileEntry> | undefined>;

export function publishedSource(url: string, root: string, logger: Logger, notice: (message: string) => void): PublishedSource {
  let asked = false;
  return async () => {
    if (asked) return undefined;
    asked = true;
    const started = Date.now();
    try {
      const [repository, head] = await Promise.all([repositoryName(root), headCommit(root)]);
      const got = await readPublished(url, { root, repository, head, indexVersion: INDEX_VERSION });
      logger.info(
        `published index ${redactUrl(url)}: ${got.entries.size} files of ${got.repository}@${got.commit.slice(0, 12)} (${got.chosen}), ` +
          `${got.differing} differ locally and are cataloged here, in ${Date.now() - started} ms`,
      );
      return got.entries;
    } catch (e) {
      const err = toLspgateError(e);
      const message = `${err.code}: ${redactText(err.message, url)}; answering from the local catalog`;
      logger.warn(`published index: ${message}`);
      notice(message);
      return undefined;
    }
  };
}
