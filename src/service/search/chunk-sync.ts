/**
 * Keeps a workspace's ChunkIndex in step with its catalog, incrementally: a file whose catalog
 * entry hash differs from the hash its chunks were made from is re-read and re-chunked, a file
 * gone from the catalog is dropped (seed 004's DeleteByFile), and nothing else is touched. The
 * catalog stays a pure index with no listeners: its entries' hashes are the change signal.
 * Markdown files (no language server, so not cataloged) are walked through the same file-safety
 * pipeline when the catalog changed, and re-read when their size or mtime changed.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ChunkIndex } from '../../chunks/chunk-index.js';
import { chunkMarkdown, chunkSourceFile } from '../../chunks/chunker.js';
import { currentGitHead } from '../../chunks/git-head.js';
import { walkWorkspace } from '../../catalog/walk.js';
import type { Catalog } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import type { Limits } from '../../config/schema.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';

const MARKDOWN = new Set(['.md', '.markdown']);

interface WorkspaceChunks {
  index: ChunkIndex;
  /** Catalog version when Markdown was last walked (-1: never). */
  docsAtVersion: number;
  docs: Map<string, string>;
  /** Serialises syncs: two searches at once must not re-chunk the same file twice. */
  pending: Promise<unknown>;
}

const states = new WeakMap<Catalog, WorkspaceChunks>();

function stateOf(cat: Catalog): WorkspaceChunks {
  let s = states.get(cat);
  if (!s) states.set(cat, (s = { index: new ChunkIndex(), docsAtVersion: -1, docs: new Map(), pending: Promise.resolve() }));
  return s;
}

export interface SyncReport {
  index: ChunkIndex;
  head: string;
  /** Files re-chunked by this sync. */
  rechunked: string[];
  removed: string[];
}

async function syncCode(ws: Workspace, s: WorkspaceChunks, head: string, report: SyncReport): Promise<void> {
  const entries = ws.catalog.files();
  for (const [rel, entry] of entries) {
    // a server entry that replaced a syntax entry of the same bytes re-cuts the file at the server's ranges
    const stamp = entry.tier === 'syntax' ? `${entry.hash}:syntax` : entry.hash;
    if (s.index.fileHash(rel) === stamp) continue;
    // chunking is CPU work per file: interactive work waiting on the event loop goes first
    await yieldToEventLoop();
    let text: string;
    try {
      text = await readFile(path.join(ws.root, rel), 'utf8');
    } catch {
      // Deleted between the catalog's look and ours: the next catalog change drops it.
      continue;
    }
    s.index.replaceFile(rel, stamp, chunkSourceFile({ file: rel, language: entry.language, text, commitHash: head, symbols: entry.symbols }));
    report.rechunked.push(rel);
  }
  for (const rel of s.index.indexedFiles()) {
    if (!entries.has(rel) && !s.docs.has(rel)) {
      s.index.removeFile(rel);
      report.removed.push(rel);
    }
  }
}

async function syncDocs(ws: Workspace, limits: Limits, s: WorkspaceChunks, head: string, report: SyncReport): Promise<void> {
  if (s.docsAtVersion !== ws.catalog.version) {
    const walk = await walkWorkspace(ws.root, { extensions: MARKDOWN, extraIgnore: ws.catalog.extraIgnore, maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles });
    const found = new Set(walk.files.map((f) => f.rel));
    for (const rel of [...s.docs.keys()].filter((r) => !found.has(r))) {
      s.index.removeFile(rel);
      s.docs.delete(rel);
      report.removed.push(rel);
    }
    for (const rel of found) if (!s.docs.has(rel)) s.docs.set(rel, '');
    s.docsAtVersion = ws.catalog.version;
  }
  for (const [rel, stamp] of s.docs) {
    const st = await stat(path.join(ws.root, rel)).catch(() => undefined);
    const now = st ? `${st.size}:${st.mtimeMs}` : '';
    if (now === stamp) continue;
    s.docs.set(rel, now);
    const text = st ? await readFile(path.join(ws.root, rel), 'utf8').catch(() => undefined) : undefined;
    if (text === undefined) {
      s.index.removeFile(rel);
      report.removed.push(rel);
    } else {
      s.index.replaceFile(rel, now, chunkMarkdown({ file: rel, language: 'markdown', text, commitHash: head }));
      report.rechunked.push(rel);
    }
  }
}

/** A moved HEAD re-stamps every chunk whose file did not change: its lines are the same at the new commit. */
function restamp(index: ChunkIndex, head: string): void {
  for (const file of index.indexedFiles()) for (const c of index.fileChunks(file)) c.commit_hash = head;
}

async function doSync(ws: Workspace, limits: Limits, s: WorkspaceChunks): Promise<SyncReport> {
  const head = currentGitHead(ws.root);
  const report: SyncReport = { index: s.index, head, rechunked: [], removed: [] };
  await syncCode(ws, s, head, report);
  await syncDocs(ws, limits, s, head, report);
  if (s.index.indexedHead !== head) restamp(s.index, head);
  if (report.rechunked.length || report.removed.length || s.index.indexedHead !== head || !s.index.builtAt) {
    s.index.indexedHead = head;
    s.index.builtAt = new Date().toISOString();
  }
  return report;
}

/** Brings the workspace's chunks up to date with its catalog (which must be built) and the disk's Markdown. */
export function syncChunks(ws: Workspace, limits: Limits): Promise<SyncReport> {
  const s = stateOf(ws.catalog);
  // background work (src/util/work-class.ts): it yields between files
  const run = s.pending.then(() => asBackground(() => doSync(ws, limits, s)));
  s.pending = run.catch(() => undefined);
  return run;
}
