/**
 * The catalog's side of `--index`: before its first walk a workspace takes the published entries
 * of its repository (reader.ts), and its answer says where they came from. An index that cannot
 * be read (unreachable, no such repository, another index version) is said once, coded, in the
 * next answer's `_meta.warnings` and in the log, and the local catalog answers alone.
 */
import type { FileEntry, PublishedTake } from '../../core/catalog.js';
import { toLspgateError } from '../../errors/errors.js';
import { headCommit } from '../../util/git.js';
import type { Logger } from '../../util/logger.js';
import { INDEX_VERSION } from '../store.js';
import { readPublishedChunks } from './chunks.js';
import { connectIndex } from './connect.js';
import { readPublished } from './reader.js';
import { repositoryName } from './repository.js';
import { redactText, redactUrl } from './url.js';

/**
 * The entries at the first call (the first build), undefined at every later one: later builds keep
 * what the catalog has. `chunks`: the published chunks of files whose local stamp is the published
 * one (chunks.ts), given to `take`; the number of files taken, or undefined when nothing was read
 * (no entries were taken, or the index cannot be read: said like the entries' failure).
 */
export type PublishedSource = (() => Promise<ReadonlyMap<string, FileEntry> | undefined>) & {
  chunks(want: ReadonlyMap<string, string>, take: PublishedTake): Promise<number | undefined>;
};

export function publishedSource(url: string, root: string, logger: Logger, notice: (message: string) => void): PublishedSource {
  let asked = false;
  let read: { repository: string; commit: string } | undefined;
  const entries = async () => {
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
      read = { repository: got.repository, commit: got.commit };
      return got.entries;
    } catch (e) {
      const err = toLspgateError(e);
      const message = `${err.code}: ${redactText(err.message, url)}; answering from the local catalog`;
      logger.warn(`published index: ${message}`);
      notice(message);
      return undefined;
    }
  };
  const chunks = async (want: ReadonlyMap<string, string>, take: PublishedTake): Promise<number | undefined> => {
    if (!read || want.size === 0) return undefined;
    const started = Date.now();
    try {
      const conn = await connectIndex(url, { readOnly: true });
      try {
        const files = await readPublishedChunks(conn, { ...read, want }, take);
        logger.info(`published index ${redactUrl(url)}: the chunks of ${files} files taken, in ${Date.now() - started} ms`);
        return files;
      } finally {
        await conn.close();
      }
    } catch (e) {
      const err = toLspgateError(e);
      const message = `${err.code}: ${redactText(err.message, url)}; the files' chunks are cut locally`;
      logger.warn(`published index: ${message}`);
      notice(message);
      return undefined;
    }
  };
  return Object.assign(entries, { chunks });
}
