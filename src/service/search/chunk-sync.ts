/**
 * Keeps a workspace's ChunkIndex in step with its catalog. The index is derived state of the
 * workspace (kept in its catalog's DerivedState, dropped with it) and learns of changes from the
 * catalog's change feed: once built, a batch of changed files is re-chunked in the background at
 * once, so a search after an edit finds the index current. Each sync is incremental: a file whose
 * catalog entry hash differs from the hash its chunks were made from (or whose server entry took the
 * place of the syntax entry they were cut at: `entryOnly` on the feed) is read again and re-chunked,
 * a file gone from the catalog is dropped (the vector store's DeleteByFile), and nothing else is touched —
 * that comparison over all entries is the cheap safety net behind the feed. Every file is read
 * through the catalog's gate (file-gate.ts): a file swapped for a symlink out of the root or holding
 * a private key is never chunked. Markdown files (no language server, so not cataloged) are walked
 * through the same gate when the catalog changed, and re-read when their size or mtime changed.
 * A directory's convention chunks (conventions.ts) are summed again from its files' idiom counts
 * when one of its files was re-chunked or dropped.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { projectManifests } from '../../adapters/languages.js';
import { FileGate } from '../../catalog/file-gate.js';
import { walkWorkspace } from '../../catalog/walk.js';
import { ChunkFts } from '../../chunks/chunk-fts.js';
import { type ChunkIndex, HeapChunkIndex } from '../../chunks/chunk-index.js';
import { chunkSourceFile } from '../../chunks/chunker.js';
import { conventionChunks, conventionKey, dirOf, isConventionKey, type PackageFile } from '../../chunks/conventions.js';
import { chunkMarkdown } from '../../chunks/doc-chunks.js';
import { currentGitHead } from '../../chunks/git-head.js';
import { HISTORY_FILE, readHistory } from '../../chunks/history.js';
import type { FileIdioms } from '../../chunks/idioms.js';
import { newWaitingVectors, waitingPublishedVectors, type WaitingVectors } from '../../chunks/published-vectors.js';
import { SqlChunkIndex } from '../../chunks/sql-chunk-index.js';
import type { Chunk, PRRef } from '../../chunks/types.js';
import { embeddingText } from '../../chunks/vectors.js';
import type { Limits } from '../../config/schema.js';
import type { CatalogChanges, Derived, DerivedKey, FileEntry } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { sha256 } from '../../util/hash.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';
import { currentPolicy, syncFlowCorpus } from './corpus-sync.js';
import { indexDbIfAvailable } from './index-db.js';

const MARKDOWN = new Set(['.md', '.markdown']);

export interface SyncReport {
  index: ChunkIndex;
  head: string;
  /** Files re-chunked since the last report (by this sync, or in the background after a change). */
  rechunked: string[];
  removed: string[];
  /** Files whose functions could not be split at their statements (a parse bound), with why. */
  unsplit: string[];
  /** File → the pull requests that touched it, newest first (once history was asked for). */
  recentPrs: ReadonlyMap<string, PRRef[]>;
  /** Why the history could not be read, when it was asked for and could not. */
  historyProblem?: string;
}

/** One workspace's chunks: its index, the Markdown it walked, and what changed since the last report. */
export class WorkspaceChunks implements Derived {
  index: ChunkIndex;
  /** Catalog version when Markdown was last walked (-1: never). */
  docsAtVersion = -1;
  docs = new Map<string, string>();
  /** Serialises syncs: two searches at once must not re-chunk the same file twice. */
  pending: Promise<unknown> = Promise.resolve();
  /** Re-chunked and removed since the last report (the background sync reports to the next caller). */
  rechunked = new Set<string>();
  removed = new Set<string>();
  /** The directories whose convention chunks are to be made again (the files' idiom counts are in the index). */
  dirtyDirs = new Set<string>();
  /** The history corpus: read once asked for (HISTORY_KINDS, recent_prs), again when HEAD moves. */
  history: { head: string; recentPrs: Map<string, PRRef[]>; problem?: string } | undefined;
  wantHistory = false;
  /** Whether the published index (`--index`) was asked for the chunks of the files it has (once). */
  publishedAsked = false;
  /**
   * The published vectors of the taken chunks, by the hash of what was embedded (vectors.ts), until
   * the first vector update takes them into the store (or re-embeds, under another embedder): in
   * the database when there is one, so also those an earlier process took.
   */
  publishedVectors: WaitingVectors | undefined;
  /** Files chunked without their function bodies (a parse bound), with why: dropped when the file is chunked again. */
  unsplit = new Map<string, string>();
  private gates: { key: string; code: FileGate; docs: FileGate } | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ws: Workspace,
    private readonly limits: Limits,
    private readonly fts?: ChunkFts,
  ) {
    this.index = newIndex(fts);
    this.publishedVectors = fts && waitingPublishedVectors(fts.db);
    this.unsubscribe = ws.catalog.changes.subscribe((batch) => this.onChanges(batch));
  }

  /** The gates files are read through: any text file the catalog has, and Markdown; with the catalog's ignore patterns. */
  gate(kind: 'code' | 'docs'): FileGate {
    const extraIgnore = this.ws.catalog.extraIgnore;
    const key = JSON.stringify(extraIgnore);
    if (this.gates?.key !== key) {
      const opts = { extraIgnore, maxFileBytes: this.limits.maxFileBytes, manifests: projectManifests() };
      this.gates = { key, code: new FileGate(this.ws.root, opts), docs: new FileGate(this.ws.root, { ...opts, extensions: MARKDOWN }) };
    }
    return this.gates[kind];
  }

  get bounds(): Limits {
    return this.limits;
  }

  bytes(): number {
    return this.index.approxBytes() + (this.publishedVectors?.bytes() ?? 0);
  }

  /** The holder for published vectors of `embedder`, made on the first file taken with vectors. */
  publishedHolder(embedder: string, identity: unknown): WaitingVectors {
    if (this.publishedVectors?.embedder !== embedder) this.publishedVectors = newWaitingVectors(this.fts?.db, embedder, identity);
    return this.publishedVectors;
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** The feed: a reset starts again from nothing; changes are re-chunked now if the index was ever built. */
  private onChanges(batch: CatalogChanges): void {
    if (batch.reset) {
      this.index = newIndex(this.fts);
      this.docs.clear();
      this.dirtyDirs.clear();
      this.history = undefined;
      this.docsAtVersion = -1;
      return;
    }
    if (!this.index.builtAt || batch.changes.length === 0) return;
    const run = this.pending.then(() => asBackground(() => syncCode(this.ws, this, currentGitHead(this.ws.root))));
    this.pending = run.catch(() => undefined);
  }

  /** Resolves once the syncs started so far are done (tests, status). */
  async settled(): Promise<void> {
    await this.pending;
  }
}

/** In the database when there is one (its only copy), else in the heap. */
function newIndex(fts: ChunkFts | undefined): ChunkIndex {
  return fts ? new SqlChunkIndex(fts) : new HeapChunkIndex();
}

const CHUNKS: DerivedKey<WorkspaceChunks> = { name: 'chunk_index' };

/**
 * The workspace's chunk state, made on first use: with `cacheDir`, its chunks are kept and ranked in
 * the workspace's database (FTS5) when this Node has node:sqlite, else in the heap (MiniSearch).
 */
export function chunksOf(ws: Workspace, limits: Limits, cacheDir?: string): WorkspaceChunks {
  return ws.catalog.derived.get(CHUNKS, () => {
    const db = cacheDir === undefined ? undefined : indexDbIfAvailable(ws, cacheDir);
    return new WorkspaceChunks(ws, limits, db && new ChunkFts(db));
  });
}

/** The workspace's chunk state if it was ever made (never makes one). */
export function existingChunks(ws: Workspace): WorkspaceChunks | undefined {
  return ws.catalog.derived.peek(CHUNKS);
}

/** A server entry that replaced a syntax entry of the same bytes re-cuts the file at the server's ranges. */
function stampOf(entry: FileEntry): string {
  return entry.tier === 'syntax' ? `${entry.hash}:syntax` : entry.hash;
}

/**
 * `--index`, once: the files whose chunks are not stored at their stamp take the published chunks
 * where the published file has the same stamp (files that differ locally are cut below), each
 * through the same gate and byte check as a file cut here.
 */
async function takePublished(ws: Workspace, s: WorkspaceChunks): Promise<void> {
  if (s.publishedAsked || !ws.catalog.publishedChunks) return;
  s.publishedAsked = true;
  const entries = ws.catalog.files();
  const want = new Map<string, string>();
  for (const [rel, entry] of entries) if (s.index.fileHash(rel) !== stampOf(entry)) want.set(rel, stampOf(entry));
  await ws.catalog.publishedChunks(want, async (rel, chunks, vectors, idioms) => {
    const entry = entries.get(rel);
    // published before the index had idiom counts: cut here, so its directory's conventions count it
    if (!entry || !idioms) return;
    const a = await s.gate('code').admit(path.join(ws.root, rel));
    if (!a.admitted || sha256(a.bytes) !== entry.hash) return;
    s.index.replaceFile(rel, stampOf(entry), chunks as Chunk[], idioms.counts ? { file: rel, language: entry.language, idioms: idioms.counts } : undefined);
    s.dirtyDirs.add(dirOf(rel));
    s.rechunked.add(rel);
    if (!vectors) return;
    const byKey = new Map<string, Float32Array>();
    (chunks as Chunk[]).forEach((c, i) => {
      const v = vectors.vectors[i];
      if (v) byKey.set(sha256(embeddingText(c)), v);
    });
    s.publishedHolder(vectors.embedder, vectors.identity).add(byKey);
  });
}

async function syncCode(ws: Workspace, s: WorkspaceChunks, head: string): Promise<void> {
  await takePublished(ws, s);
  const entries = ws.catalog.files();
  for (const [rel, entry] of entries) {
    const stamp = stampOf(entry);
    if (s.index.fileHash(rel) === stamp) continue;
    // chunking is CPU work per file: interactive work waiting on the event loop goes first
    await yieldToEventLoop();
    const a = await s.gate('code').admit(path.join(ws.root, rel));
    if (!a.admitted) {
      if (s.index.fileHash(rel) !== undefined) drop(s, rel);
      continue;
    }
    // Changed again since it was cataloged: its symbols' ranges are not those of these bytes; the
    // catalog's next change brings it here again.
    if (sha256(a.bytes) !== entry.hash) continue;
    const text = a.bytes.toString('utf8');
    s.unsplit.delete(rel);
    const unsplit = (m: string) => s.unsplit.set(rel, m);
    s.dirtyDirs.add(dirOf(rel));
    let counted: PackageFile | undefined;
    const idioms = (counts: FileIdioms) => (counted = { file: rel, language: entry.language, idioms: counts });
    const chunks = await chunkSourceFile({
      file: rel,
      language: entry.language,
      text,
      commitHash: head,
      symbols: entry.symbols,
      bounds: s.bounds,
      unsplit,
      idioms,
    });
    s.index.replaceFile(rel, stamp, chunks, counted);
    s.rechunked.add(rel);
    s.removed.delete(rel);
  }
  // `:git-log`, `:flow-corpus`: not files
  for (const rel of s.index.indexedFiles()) if (!entries.has(rel) && !s.docs.has(rel) && !isConventionKey(rel) && !rel.startsWith(':')) drop(s, rel);
  syncConventions(s, head);
}

/** The convention chunks of the directories whose files changed. */
function syncConventions(s: WorkspaceChunks, head: string): void {
  for (const dir of s.dirtyDirs) {
    const chunks = conventionChunks(dir, s.index.dirIdioms(dir), head);
    if (chunks.length) s.index.replaceFile(conventionKey(dir), chunks.map((c) => c.content_sha256).join(':'), chunks);
    else s.index.removeFile(conventionKey(dir));
  }
  s.dirtyDirs.clear();
}

function drop(s: WorkspaceChunks, rel: string): void {
  if (!isConventionKey(rel) && !rel.startsWith(':')) s.dirtyDirs.add(dirOf(rel));
  s.index.removeFile(rel);
  s.removed.add(rel);
  s.rechunked.delete(rel);
}

async function syncDocs(ws: Workspace, limits: Limits, s: WorkspaceChunks, head: string): Promise<void> {
  if (s.docsAtVersion !== ws.catalog.version) {
    const walk = await walkWorkspace(
      ws.root,
      { extensions: MARKDOWN, extraIgnore: ws.catalog.extraIgnore, maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles },
      s.gate('docs'),
    );
    const found = new Set(walk.files.map((f) => f.rel));
    for (const rel of [...s.docs.keys()].filter((r) => !found.has(r))) {
      drop(s, rel);
      s.docs.delete(rel);
    }
    for (const rel of found) if (!s.docs.has(rel)) s.docs.set(rel, '');
    s.docsAtVersion = ws.catalog.version;
  }
  for (const [rel, stamp] of s.docs) {
    const abs = path.join(ws.root, rel);
    const st = await stat(abs).catch(() => undefined);
    const now = st ? `${st.size}:${st.mtimeMs}` : '';
    if (now === stamp) continue;
    s.docs.set(rel, now);
    // cut from the same size and mtime by this process before a restart, or by another one
    if (now && s.index.fileHash(rel) === now) continue;
    const a = st ? await s.gate('docs').admit(abs) : undefined;
    if (!a?.admitted) drop(s, rel);
    else {
      s.index.replaceFile(rel, now, chunkMarkdown({ file: rel, language: 'markdown', text: a.bytes.toString('utf8'), commitHash: head }));
      s.rechunked.add(rel);
      s.removed.delete(rel);
    }
  }
}

/** The history chunks at HEAD, read when asked for and again when HEAD moved. */
async function syncHistory(ws: Workspace, s: WorkspaceChunks, head: string): Promise<void> {
  if (!s.wantHistory || s.history?.head === head) return;
  if (!head) {
    s.history = { head, recentPrs: new Map(), problem: 'the workspace is not in a git repository: no history chunks' };
    return;
  }
  const h = await readHistory(ws.root);
  if ('problem' in h) {
    s.history = { head, recentPrs: new Map(), problem: h.problem };
    s.index.removeFile(HISTORY_FILE);
    return;
  }
  s.index.replaceFile(HISTORY_FILE, head, h.chunks);
  s.history = { head, recentPrs: h.recentPrs };
}

async function doSync(ws: Workspace, limits: Limits, s: WorkspaceChunks): Promise<SyncReport> {
  const head = currentGitHead(ws.root);
  // Markdown first: the code pass drops every stored key that is neither cataloged nor a walked document
  await syncDocs(ws, limits, s, head);
  await syncCode(ws, s, head);
  await syncHistory(ws, s, head);
  await syncFlowCorpus(ws, s, head);
  await currentPolicy(ws, s.index);
  // a moved HEAD re-stamps every chunk whose file did not change: its lines are the same at the new commit
  if (s.index.indexedHead !== head) s.index.restamp(head);
  for (const rel of [...s.unsplit.keys()]) if (!s.index.fileHash(rel)) s.unsplit.delete(rel);
  const report: SyncReport = {
    index: s.index,
    head,
    rechunked: [...s.rechunked].sort(),
    removed: [...s.removed].sort(),
    unsplit: [...s.unsplit.values()].sort(),
    recentPrs: s.history?.recentPrs ?? new Map(),
    ...(s.history?.problem ? { historyProblem: s.history.problem } : {}),
  };
  s.rechunked.clear();
  s.removed.clear();
  if (report.rechunked.length || report.removed.length || s.index.indexedHead !== head || !s.index.builtAt) {
    s.index.indexedHead = head;
    s.index.builtAt = new Date().toISOString();
  }
  return report;
}

/**
 * Brings the workspace's chunks up to date with its catalog (which must be built) and the disk's
 * Markdown; with `history`, reads the git history too from then on (history.ts).
 */
export function syncChunks(ws: Workspace, limits: Limits, opts: { history?: boolean; cacheDir?: string } = {}): Promise<SyncReport> {
  const s = chunksOf(ws, limits, opts.cacheDir);
  if (opts.history) s.wantHistory = true;
  // background work (src/util/work-class.ts): it yields between files
  const run = s.pending.then(() => asBackground(() => doSync(ws, limits, s)));
  s.pending = run.catch(() => undefined);
  return run;
}
