/**
 * One build's walk: every file the gate admits is brought up to date (kept when its stamps or hash
 * still match, else cataloged again) by its server, and parsed by the syntax tier beside (worker
 * threads: early answers need only that pass), files no longer walked leave the catalog, and files that
 * failed for a passing reason are asked once more at the end. Progress is reported at least every
 * 2 s: a large cold build is quiet for long stretches (a server loading its project answers nothing).
 */
import type { CatalogWalkOptions } from '../core/catalog.js';
import { LspgateError } from '../errors/errors.js';
import type { Logger } from '../util/logger.js';
import type { CatalogFiles } from './catalog-files.js';
import type { DiskChanges } from './disk-changes.js';
import { WALKED } from './file-gate.js';
import type { Freshness } from './freshness.js';
import type { SyntaxEntries } from './syntax-tier.js';
import { type WalkResult, walkWorkspace } from './walk.js';

const PROGRESS_EVERY_MS = 2000;
/** Failures that may pass: asked once more at the end of a build. */
const RETRIED_CODES = new Set(['TIMEOUT', 'SERVER_CRASHED', 'CONTENT_MODIFIED', 'SERVER_START_FAILED']);

export type BuildOptions = { signal?: AbortSignal; onProgress?: (done: number, total: number) => void };

/** The stages a build's walk feeds (each file through the gate of `files`), and the walk's bounds. */
export interface BuildWalkStages {
  /** Where entries enter and leave; its gate is the walk's. */
  readonly files: CatalogFiles;
  /** The syntax tier's pass runs beside the servers' (syntax-tier.ts). */
  readonly syntax: SyntaxEntries;
  /** Each walked file kept or asked of its server again (freshness.ts). */
  readonly freshness: Freshness;
  /** Watches the walked directories before the files are parsed; undefined when the catalog does not watch. */
  readonly disk: DiskChanges | undefined;
  readonly logger: Logger;
  readonly limits: { maxFileBytes: number; maxFiles: number };
  readonly options: CatalogWalkOptions;
}

/** Walks the workspace and brings every walked file up to date; the walk (skips, limits, directories). */
export async function buildWalk(stages: BuildWalkStages, opts: BuildOptions): Promise<WalkResult> {
  const { limits, files, freshness, syntax } = stages;
  const walk = await walkWorkspace(
    files.root,
    { maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles, followSymlinks: !!stages.options.followSymlinks, signal: opts.signal },
    files.gate,
  );
  // watched before the pass: a file edited while the pass runs is parsed again at once, not at the next build
  stages.disk?.start(walk.directories);
  const keep = new Set(walk.files.map((f) => f.rel));
  for (const rel of [...files.index.files.keys(), ...files.errors.keys()]) if (!keep.has(rel)) files.removeFile(rel, true);
  let done = 0;
  const total = walk.files.length;
  opts.onProgress?.(0, total);
  const heartbeat = setInterval(() => opts.onProgress?.(done, total), PROGRESS_EVERY_MS);
  try {
    // the syntax pass (worker threads) answers early questions while the servers catalog beside it
    const syntaxPass = syntax.pass(walk.files, opts.signal);
    await Promise.all(
      walk.files.map(async (f) => {
        if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cataloging was cancelled');
        // a file no server catalogs keeps its syntax entry: it is done when the pass is
        const server = syntax.serverless(f.rel) ? undefined : freshness.refreshFile(f, true, WALKED);
        await (server ?? syntax.passed()).catch((e: unknown) => files.recordError(f.rel, e, true));
        opts.onProgress?.(++done, total);
      }),
    );
    await syntaxPass;
    await retryFailed(stages, walk.files, opts.signal);
  } finally {
    clearInterval(heartbeat);
  }
  return walk;
}

/**
 * Files that failed for a passing reason (a timeout, a crashed or busy server) are asked once more,
 * one at a time, after the flood is over; what fails again stays in status().errors.
 */
async function retryFailed(stages: BuildWalkStages, walked: { abs: string; rel: string }[], signal?: AbortSignal): Promise<void> {
  for (const f of walked) {
    const err = stages.files.errors.get(f.rel);
    // a file only the syntax tier parses is not asked again: its deadline was its bound (and no server would take it)
    if (!err || !RETRIED_CODES.has(err.code) || stages.syntax.catalogs(f.rel)) continue;
    if (signal?.aborted) throw new LspgateError('CANCELLED', 'cataloging was cancelled');
    stages.logger.info(`retrying ${f.rel} after ${err.code}`);
    await stages.files.catalogFile(f.abs, f.rel, true, WALKED).catch((e: unknown) => stages.files.recordError(f.rel, e, true));
  }
}
