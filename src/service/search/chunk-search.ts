/**
 * search_code (a Hit, chunks/types.ts, per matching chunk of the workspace) and `search`, the same
 * search in the earlier shape some clients ask for by name.
 * Every hit carries its citation; a hit whose lines no longer hold the indexed content, or whose
 * commit is not HEAD, is still returned with `stale_citation: true` (a citation is never silently dropped). Before flagging,
 * the files of content-stale hits are re-cataloged once (the watcher may not have caught up), so
 * an edit on disk shows as fresh chunks, not as stale ones.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { LIST_ALL } from '../../chunks/chunk-index.js';
import { contentSha256, linesText, splitLines } from '../../chunks/ids.js';
import { type Chunk, type ChunkFilter, type Citation, citationOf, HISTORY_KINDS, type HitScore, type PRRef, quotesLines } from '../../chunks/types.js';
import { tokensOf } from '../../core/paging.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { reportCatalog } from '../workspace/repository.js';
import { defaultEmbedder, rankChunks, type RankedChunk, type SearchMode } from './chunk-ranking.js';
import { syncChunks, type SyncReport } from './chunk-sync.js';
import { categoryOf } from './corpus-sync.js';
import { configuredEmbedder } from './embedder-config.js';
import { reportRebuilt, updatedVectors } from './vector-index.js';

export type { SearchMode };

export interface SearchCodeInput {
  query: string;
  filter?: ChunkFilter | undefined;
  limit?: number | undefined;
  mode?: SearchMode | undefined;
  max_tokens?: number | undefined;
  include_text?: boolean | undefined;
  /** Drop the workspace's vector index and rebuild it with the embedder in use. */
  reindex?: boolean | undefined;
  /** Each hit's recent_prs: the pull requests that touched its file (merged at or before filter.as_of). */
  recent_prs?: boolean | undefined;
}

/** Whether the call needs the git history read: it asks for history kinds or for recent_prs. */
function wantsHistory(input: SearchCodeInput): boolean {
  return !!input.recent_prs || !!input.filter?.chunk_kinds?.some((k) => HISTORY_KINDS.includes(k));
}

export interface HitSymbol {
  symbol_id: string;
  name: string;
  kind: string;
  signature: string;
}

export interface CodeHit {
  chunk: Omit<Chunk, 'text' | 'docstring'> & { text?: string };
  citation: Citation;
  score: HitScore;
  stale_citation: boolean;
  preview: { start_line: number; lines: string[] };
  symbol?: HitSymbol;
  /** Identical chunks elsewhere (copies of the file), folded into this hit: how many, and the first citations. */
  duplicates?: { count: number; citations: Citation[] };
  /** Other pieces of the same split function that matched (`start-end` lines), folded into this hit. */
  pieces?: string[];
}

const MAX_DUPLICATE_CITATIONS = 10;

const PREVIEW_LINES = 10;

/** Per call: each file read once, split into lines. */
class FileLines {
  private readonly cache = new Map<string, Promise<string[] | undefined>>();
  constructor(private readonly root: string) {}
  get(rel: string): Promise<string[] | undefined> {
    let p = this.cache.get(rel);
    if (!p) this.cache.set(rel, (p = readFile(path.join(this.root, rel), 'utf8').then(splitLines, () => undefined)));
    return p;
  }
}

/** Whether the cited lines of the file on disk still hash to the chunk's content_sha256. */
export async function contentHolds(files: FileLines, c: Pick<Chunk, 'file' | 'start_line' | 'end_line' | 'content_sha256'>): Promise<boolean> {
  const lines = await files.get(c.file);
  return !!lines && c.end_line <= lines.length && contentSha256(linesText(lines, c.start_line, c.end_line)) === c.content_sha256;
}

export { FileLines };

function checkInput(call: ServiceCall, input: SearchCodeInput): void {
  const max = call.env.limits.maxQueryLength;
  if (input.query.length > max) throw new LspgateError('INVALID_INPUT', `query is longer than maxQueryLength ${max}`);
}

async function rankedHits(
  call: ServiceCall,
  input: SearchCodeInput,
  mode: SearchMode,
): Promise<{ hits: RankedChunk[]; head: string; files: FileLines; used: SearchMode; index: SyncReport['index']; recentPrs: SyncReport['recentPrs'] }> {
  const cat = call.workspace.catalog;
  // chunks are cut at the catalog's symbol ranges, syntax-tier ones included (early)
  await cat.ready({ early: true });
  await cat.settled();
  const limit = input.limit ?? 10;
  const history = { history: wantsHistory(input) };
  let sync = await syncChunks(call.workspace, call.env.limits, { ...history, cacheDir: call.env.cacheDir });
  if (history.history && sync.historyProblem) call.meta.warn(sync.historyProblem);
  if (input.reindex) await updatedVectors(call, sync, configuredEmbedder() ?? defaultEmbedder, true);
  let files = new FileLines(call.root);
  const rank = (s: SyncReport) => rankWithFallback(call, s, input, limit, mode);
  let { hits, used } = await rank(sync);
  const changed = new Set<string>();
  for (const h of hits) if (quotesLines(h.chunk) && !(await contentHolds(files, h.chunk))) changed.add(h.chunk.file);
  if (changed.size > 0 && (await cat.freshen(changed, { early: true }))) {
    sync = await syncChunks(call.workspace, call.env.limits, { ...history, cacheDir: call.env.cacheDir });
    files = new FileLines(call.root);
    ({ hits, used } = await rank(sync));
  }
  for (const m of sync.unsplit) call.meta.warn(m);
  return { hits, head: sync.head, files, used, index: sync.index, recentPrs: sync.recentPrs };
}

/**
 * An embedding endpoint that fails (down, erroring, too slow) makes a hybrid search a BM25 one with
 * a warning — the answer is still useful, and its `mode` says which ranking it is — while an
 * explicit vector search fails with the code. A vector index built by another embedder is
 * INDEX_MISMATCH in both modes: a silent BM25 answer would hide that the index needs a rebuild.
 */
async function rankWithFallback(
  call: ServiceCall,
  sync: SyncReport,
  input: SearchCodeInput,
  limit: number,
  mode: SearchMode,
): Promise<{ hits: RankedChunk[]; used: SearchMode }> {
  const index = sync.index;
  try {
    const vectors = mode === 'bm25' ? undefined : await updatedVectors(call, sync, configuredEmbedder() ?? defaultEmbedder, false);
    const hits = await rankChunks(index, input.query, input.filter, limit, mode, vectors, call.signal);
    if (vectors) reportRebuilt(call, vectors);
    return { hits, used: mode };
  } catch (e) {
    if (mode !== 'hybrid' || !(e instanceof LspgateError) || (e.code !== 'SERVER_FAILED' && e.code !== 'TIMEOUT')) throw e;
    call.meta.warn(`${e.message}; answered with BM25 only`);
    return { hits: await rankChunks(index, input.query, input.filter, limit, 'bm25'), used: 'bm25' };
  }
}

/**
 * The cited lines a preview shows from its start line: the chunk's text, or for a class chunk
 * (whose text is its outline) the lines on disk while they still hold the cited content.
 */
async function previewText(files: FileLines, c: Chunk): Promise<string> {
  // a curated chunk's text is what it says of the lines it cites
  if (
    !quotesLines(c) ||
    c.flow_step ||
    c.flow_spine ||
    c.provenance === 'curated' ||
    contentSha256(c.text) === c.content_sha256 ||
    !(await contentHolds(files, c))
  )
    return c.text;
  return linesText((await files.get(c.file))!, c.start_line, c.end_line);
}

function symbolOf(call: ServiceCall, c: Chunk): HitSymbol | undefined {
  const sym = c.symbol_id ? call.workspace.catalog.cached(c.symbol_id) : undefined;
  return sym && { symbol_id: sym.symbol_id, name: sym.qualified_name, kind: sym.kind, signature: sym.signature };
}

/** By commit: a chunk of the tree at another commit than HEAD; a commit's own message never goes stale. */
function staleHit(c: Chunk, head: string): boolean {
  return !HISTORY.has(c.chunk_kind) && c.commit_hash !== head;
}

const HISTORY = new Set<Chunk['chunk_kind']>(HISTORY_KINDS);

/** The PRs that touched a chunk's file, merged at or before `asOf` when given. */
function recentPrsOf(c: Chunk, prs: SyncReport['recentPrs'], asOf: string | undefined): PRRef[] {
  const all = quotesLines(c) ? (prs.get(c.file) ?? []) : [];
  const cut = asOf ? Date.parse(asOf) : undefined;
  return cut === undefined ? all : all.filter((p) => !p.merged_at_utc || Date.parse(p.merged_at_utc) <= cut);
}

async function toHit(
  call: ServiceCall,
  h: RankedChunk,
  head: string,
  files: FileLines,
  includeText: boolean,
  prs?: PRRef[],
  index?: SyncReport['index'],
): Promise<CodeHit> {
  const { text, docstring, ...fields } = h.chunk;
  const cat = index && categoryOf(index, h.chunk);
  const rest = {
    ...fields,
    ...(prs ? { recent_prs: prs } : {}),
    ...(cat ? { category: cat.category, ...(cat.guidance ? { guidance: cat.guidance } : {}) } : {}),
  };
  void docstring;
  // a curated flow naming what the catalog no longer has is a stale citation (its `unresolved` says which)
  const stale = staleHit(h.chunk, head) || !!h.chunk.unresolved?.length || (quotesLines(h.chunk) && !(await contentHolds(files, h.chunk)));
  const lines = (await previewText(files, h.chunk)).split('\n').slice(0, PREVIEW_LINES);
  const score: HitScore = h.score;
  const symbol = symbolOf(call, h.chunk);
  return {
    chunk: includeText ? { ...rest, text } : rest,
    citation: citationOf(h.chunk),
    score,
    stale_citation: stale,
    preview: { start_line: h.chunk.start_line, lines },
    ...(symbol ? { symbol } : {}),
    ...(h.pieces?.length ? { pieces: h.pieces.slice(0, MAX_DUPLICATE_CITATIONS).map((c) => `${c.start_line}-${c.end_line}`) } : {}),
    ...(h.duplicates?.length ? { duplicates: { count: h.duplicates.length, citations: h.duplicates.slice(0, MAX_DUPLICATE_CITATIONS).map(citationOf) } } : {}),
  };
}

/** Hits within `max_tokens` (at least one), `_meta.limits_hit` saying so when it cut. */
function withinTokens(call: ServiceCall, hits: CodeHit[], maxTokens: number | undefined): CodeHit[] {
  if (maxTokens === undefined) return hits;
  let used = 0;
  const out: CodeHit[] = [];
  for (const h of hits) {
    const t = tokensOf(h);
    if (out.length > 0 && used + t > maxTokens) {
      call.meta.truncate();
      call.meta.limit({ limit: 'max_tokens', value: maxTokens, detail: `${hits.length - out.length} more hit(s) left out; raise max_tokens for them` });
      break;
    }
    used += t;
    out.push(h);
  }
  return out;
}

export async function searchCode(call: ServiceCall, input: SearchCodeInput): Promise<{ query: string; mode: SearchMode; hits: CodeHit[]; total: number }> {
  checkInput(call, input);
  // `*` lists what the filter keeps: there are no words to rank by
  const mode = input.query.trim() === LIST_ALL ? 'bm25' : (input.mode ?? (configuredEmbedder() ? 'hybrid' : 'bm25'));
  const { hits, head, files, used, index, recentPrs } = await rankedHits(call, input, mode);
  const out: CodeHit[] = [];
  for (const h of hits)
    out.push(
      await toHit(call, h, head, files, !!input.include_text, input.recent_prs ? recentPrsOf(h.chunk, recentPrs, input.filter?.as_of) : undefined, index),
    );
  const quoting = out.filter((h) => quotesLines(h.chunk)).map((h) => h.citation.file);
  for (const f of quoting) call.meta.addSourceFile(path.join(call.root, f));
  // a hit from a file without a server says so; a workspace merely holding such files does not
  reportCatalog(call.workspace.catalog, call.meta, { files: quoting });
  const page = withinTokens(call, out, input.max_tokens);
  // what each citation handed out cites, for verify_citation without content_sha256
  for (const h of hits.slice(0, page.length)) index.noteCited(h.chunk);
  return { query: input.query, mode: used, hits: page, total: hits.length };
}
