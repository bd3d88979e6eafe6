/**
 * Background verification of the one catalog: the catalog's entries come from parse trees; while
 * the servers are idle, a sample of files is asked of their servers' documentSymbol (background
 * units: every interactive request goes first) and compared symbol by symbol with the catalog's
 * entry of the same bytes. The counts are the catalog's `tiers.disagreement` (with the sample
 * size); each disagreement is logged with its file and symbol. The catalog stays as parsed:
 * verification never changes an id.
 */
import path from 'node:path';

import type { FileEntry } from '../../core/catalog.js';
import type { Logger } from '../../util/logger.js';
import type { ServiceCataloger } from '../cataloging/cataloger.js';

/** Files per server asked in one build's sample. */
export const SAMPLE_PER_SERVER = 16;

export interface VerifiedCatalog {
  readonly root: string;
  files(): ReadonlyMap<string, FileEntry>;
  readonly tier: {
    compare(before: FileEntry | undefined, after: FileEntry, disagree?: (what: string, id: string) => void): void;
    sampled(): void;
  };
}

/** `perServer` files of each server's (evenly spread over the sorted paths), one after the other. */
export async function verifySample(catalog: VerifiedCatalog, cataloger: ServiceCataloger, logger: Logger, perServer = SAMPLE_PER_SERVER): Promise<void> {
  const byServer = new Map<string, string[]>();
  for (const [rel, e] of catalog.files()) {
    if (e.tier !== 'syntax' || !cataloger.syntax?.hasServer(rel)) continue;
    const server = cataloger.serverOf(path.join(catalog.root, rel));
    if (server) byServer.set(server, [...(byServer.get(server) ?? []), rel]);
  }
  for (const [server, rels] of byServer) {
    rels.sort();
    const step = Math.max(1, rels.length / perServer);
    const sample = [...new Set(Array.from({ length: Math.min(perServer, rels.length) }, (_, i) => rels[Math.floor(i * step)]!))];
    for (const rel of sample) {
      const mine = catalog.files().get(rel);
      if (!mine) continue;
      catalog.tier.sampled();
      const theirs = await cataloger.serverEntry(path.join(catalog.root, rel), rel, { background: true }).catch((e: unknown) => {
        logger.debug(`verification: ${server} could not list ${rel}`, e);
        return undefined;
      });
      // a file that changed since it was parsed is not a disagreement: it is skipped
      if (theirs && catalog.files().get(rel) === mine) catalog.tier.compare(mine, theirs, (what, id) => logger.info(`verification: ${what} ${id} (${server})`));
    }
  }
}
