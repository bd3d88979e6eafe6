/**
 * The chunks of one workspace and their BM25 index, kept per file so a changed file re-chunks and
 * re-indexes only itself: the contract (ChunkIndex) and its heap implementation. The workspace's
 * chunks live in its SQLite database (sql-chunk-index.ts, ranked by FTS5: 36 of 43 developer
 * questions answered in the top 5 against MiniSearch's 34, bench/search-fts5.ts); the heap one is
 * for a process that cannot have the database (a read-only or full cache disk) and for tests of the
 * index alone. In the heap, BM25 documents are keyed by what they index (file, content hash, name,
 * signature, docstring, kind), not by chunk id: an edit that shifts the chunks below it changes
 * their ids but not their documents, so `replaceFile` re-tokenises only chunks whose text changed
 * and re-points the rest at their new lines.
 * Lexical ranking in the heap: MiniSearch's BM25+ over several fields, with our code tokenizer.
 */
import MiniSearch from 'minisearch';

import { sha256 } from '../util/hash.js';
import type { ChunkFts } from './chunk-fts.js';
import { dirOf, type PackageFile } from './conventions.js';
import { chunkMatcher } from './filter.js';
import { HISTORY_FILE } from './history.js';
import { normalizeTerm, tokenizeCode } from './tokenize.js';
import { type Chunk, CHUNK_SCHEMA_VERSION, type ChunkFilter } from './types.js';

interface IndexedFile {
  /** The catalog's (or for Markdown, our own) sha256 of the file bytes the chunks were made from. */
  hash: string;
  chunks: Chunk[];
  /** BM25 document key → the chunk it indexes now. */
  docs: Map<string, Chunk>;
}

interface Doc {
  id: string;
  name: string;
  signature: string;
  doc: string;
  path: string;
  text: string;
}

export interface Bm25Hit {
  chunk: Chunk;
  bm25: number;
}

/** Field weights: a question names what a function does, which is mostly in its name and signature. */
const BOOST = { name: 4, signature: 2, doc: 2, path: 1, text: 1 };
const RETIRED_MAX = 20_000;
/** The query that lists what the filter keeps instead of ranking by words (the invariants of a file). */
export const LIST_ALL = '*';

/** What a chunk's BM25 document depends on; the n-th identical chunk of a file gets `#n`. */
function docKey(c: Chunk, seen: Map<string, number>): string {
  const base = sha256(JSON.stringify([c.file, c.content_sha256, c.symbol_name, c.signature, c.docstring, c.symbol_kind, c.chunk_kind]));
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n ? `${base}#${n}` : base;
}

function docOf(key: string, c: Chunk): Doc {
  return { id: key, name: c.symbol_name ?? '', signature: c.signature ?? '', doc: c.docstring ?? '', path: c.file, text: c.text };
}

/** Citations remembered at most (the oldest handed out is forgotten first). */
const MAX_CITED = 100_000;

function citationKey(file: string, start: number, end: number, commit: string): string {
  return `${file}\0${start}:${end}\0${commit}`;
}

/** Chunks per kind and invariant tier, and the rest of index_stats' view of the index. */
export interface ChunkIndexStats {
  chunk_count: number;
  chunk_kinds: Record<string, number>;
  invariant_tiers: Record<string, number>;
  file_count: number;
  bm25_terms: number;
  text_bytes: number;
  indexed_head: string;
  built_at: string;
  schema_version: string;
}

/** A workspace's chunks by index key (a path, a directory's convention key, `:`-keys), and their lexical ranking. */
export interface ChunkIndex {
  builtAt: string;
  indexedHead: string;
  /** The database side, when the chunks are kept there. */
  readonly fts?: ChunkFts | undefined;
  /** The stamp (content hash) the key's chunks were cut from. */
  fileHash(file: string): string | undefined;
  indexedFiles(): string[];
  readonly chunkCount: number;
  /** A chunk indexed now, or (heap only) one a re-index replaced. */
  get(id: string): Chunk | undefined;
  /** A chunk indexed now (not a replaced one). */
  live(id: string): Chunk | undefined;
  noteCited(c: Chunk): void;
  citedContents(file: string, start: number, end: number, commit: string): readonly string[];
  fileChunks(file: string): readonly Chunk[];
  /** Chunk ids by key, in one read (what the vector indexer compares with its rows). */
  idsByFile(): Map<string, string[]>;
  /** `idioms`: the file's idiom counts, kept for its directory's convention chunks. */
  replaceFile(file: string, hash: string, chunks: Chunk[], idioms?: PackageFile): unknown;
  removeFile(file: string): void;
  /** The idiom counts of the files of `dir`. */
  dirIdioms(dir: string): PackageFile[];
  /** One file's idiom counts (undefined: none counted). */
  fileIdioms(file: string): PackageFile | undefined;
  /** HEAD moved: every chunk but the history's is cited at `head` (its lines are the same there). */
  restamp(head: string): void;
  search(query: string, filter: ChunkFilter | undefined, limit: number): Bm25Hit[];
  kindCounts(): { kinds: Record<string, number>; tiers: Record<string, number> };
  /** What it holds in the heap (bytes, estimated). */
  approxBytes(): number;
  stats(): ChunkIndexStats;
}

/**
 * The content each citation an index handed out cited (file, lines, commit → content_sha256s, in the
 * order handed out): the same lines at the same commit can have held other content since (an edit not
 * committed yet), and verify_citation judges against what was cited. Bounded: the oldest go first.
 */
export class CitedContents {
  private readonly cited = new Map<string, string[]>();

  note(c: Chunk): void {
    const key = citationKey(c.file, c.start_line, c.end_line, c.commit_hash);
    const list = this.cited.get(key) ?? [];
    if (!list.includes(c.content_sha256)) list.push(c.content_sha256);
    this.cited.delete(key);
    this.cited.set(key, list);
    if (this.cited.size > MAX_CITED) this.cited.delete(this.cited.keys().next().value!);
  }

  of(file: string, start: number, end: number, commit: string): readonly string[] {
    return this.cited.get(citationKey(file, start, end, commit)) ?? [];
  }

  /** Estimated heap bytes. */
  bytes(): number {
    return 300 * this.cited.size;
  }
}

export class HeapChunkIndex implements ChunkIndex {
  private readonly files = new Map<string, IndexedFile>();
  private readonly byId = new Map<string, Chunk>();
  /** Chunks replaced by a re-index, by id: verify_citation can still say what an old citation held. */
  private readonly retired = new Map<string, Chunk>();
  private readonly cited = new CitedContents();
  private readonly idioms = new Map<string, PackageFile>();
  /** BM25 document key → the chunk it stands for now. */
  private readonly docs = new Map<string, Chunk>();
  private readonly bm25 = new MiniSearch<Doc>({
    fields: ['name', 'signature', 'doc', 'path', 'text'],
    tokenize: tokenizeCode,
    processTerm: normalizeTerm,
    searchOptions: { boost: BOOST, prefix: (term) => term.length >= 5 },
    autoVacuum: false,
  });
  builtAt = '';
  indexedHead = '';

  readonly fts = undefined;

  fileHash(file: string): string | undefined {
    return this.files.get(file)?.hash;
  }

  indexedFiles(): string[] {
    return [...this.files.keys()];
  }

  get chunkCount(): number {
    return this.byId.size;
  }

  get(id: string): Chunk | undefined {
    return this.byId.get(id) ?? this.retired.get(id);
  }

  live(id: string): Chunk | undefined {
    return this.byId.get(id);
  }

  noteCited(c: Chunk): void {
    this.cited.note(c);
  }

  citedContents(file: string, start: number, end: number, commit: string): readonly string[] {
    return this.cited.of(file, start, end, commit);
  }

  fileChunks(file: string): readonly Chunk[] {
    return this.files.get(file)?.chunks ?? [];
  }

  idsByFile(): Map<string, string[]> {
    return new Map([...this.files].map(([f, x]) => [f, x.chunks.map((c) => c.id)]));
  }

  dirIdioms(dir: string): PackageFile[] {
    return [...this.idioms.values()].filter((f) => dirOf(f.file) === dir);
  }

  fileIdioms(file: string): PackageFile | undefined {
    return this.idioms.get(file);
  }

  restamp(head: string): void {
    for (const [file, x] of this.files) if (file !== HISTORY_FILE) for (const c of x.chunks) c.commit_hash = head;
  }

  /** Says how many BM25 documents were tokenised anew, kept (re-pointed at moved lines) and discarded. */
  replaceFile(file: string, hash: string, chunks: Chunk[], idioms?: PackageFile): { added: number; kept: number; discarded: number } {
    const old = this.files.get(file);
    if (idioms) this.idioms.set(file, idioms);
    else this.idioms.delete(file);
    for (const c of old?.chunks ?? []) this.byId.delete(c.id);
    const ids = new Set<string>();
    const unique = chunks.filter((c) => !ids.has(c.id) && !this.byId.has(c.id) && !!ids.add(c.id));
    const seen = new Map<string, number>();
    const docs = new Map(unique.map((c) => [docKey(c, seen), c] as const));
    const added: Doc[] = [];
    let discarded = 0;
    for (const [key, c] of docs) {
      this.byId.set(c.id, c);
      if (old?.docs.has(key)) this.docs.set(key, c);
      else added.push(docOf(key, c));
    }
    for (const [key, c] of old?.docs ?? []) {
      if (!docs.has(key)) {
        this.bm25.discard(key);
        this.docs.delete(key);
        discarded++;
      }
      if (!this.byId.has(c.id)) this.retire(c);
    }
    for (const d of added) this.docs.set(d.id, docs.get(d.id)!);
    this.bm25.addAll(added);
    this.files.set(file, { hash, chunks: unique, docs });
    return { added: added.length, kept: docs.size - added.length, discarded };
  }

  removeFile(file: string): void {
    const old = this.files.get(file);
    this.idioms.delete(file);
    if (!old) return;
    for (const [key, c] of old.docs) {
      this.byId.delete(c.id);
      this.bm25.discard(key);
      this.docs.delete(key);
      this.retire(c);
    }
    this.files.delete(file);
  }

  private retire(c: Chunk): void {
    this.retired.set(c.id, c);
    if (this.retired.size > RETIRED_MAX) this.retired.delete(this.retired.keys().next().value!);
  }

  /** BM25 hits best first, filtered before the cut so `limit` filtered hits come back when they exist; `*`: every chunk the filter keeps, by file and line. */
  search(query: string, filter: ChunkFilter | undefined, limit: number): Bm25Hit[] {
    const match = chunkMatcher(filter);
    if (query.trim() === LIST_ALL) return this.list(match, limit);
    const results = this.bm25.search(query, { filter: (r) => match(this.docs.get(r.id as string)!) });
    return results.slice(0, limit).map((r) => ({ chunk: this.docs.get(r.id as string)!, bm25: r.score }));
  }

  private list(match: (c: Chunk) => boolean, limit: number): Bm25Hit[] {
    const out: Chunk[] = [];
    for (const file of [...this.files.keys()].sort()) {
      for (const c of this.files.get(file)!.chunks) if (match(c)) out.push(c);
      if (out.length >= limit) break;
    }
    return out.slice(0, limit).map((chunk) => ({ chunk, bm25: 0 }));
  }

  /** Chunks per kind, and invariant chunks per tier (index_stats). */
  kindCounts(): { kinds: Record<string, number>; tiers: Record<string, number> } {
    const kinds: Record<string, number> = {};
    const tiers: Record<string, number> = {};
    for (const c of this.byId.values()) {
      kinds[c.chunk_kind] = (kinds[c.chunk_kind] ?? 0) + 1;
      if (c.tier) tiers[c.tier] = (tiers[c.tier] ?? 0) + 1;
    }
    return { kinds, tiers };
  }

  /** An estimate of the memory it holds: chunk texts (UTF-16, retired ones too), a share per chunk and per BM25 term. */
  approxBytes(): number {
    let chars = 0;
    for (const c of this.byId.values()) chars += c.text.length;
    for (const c of this.retired.values()) chars += c.text.length;
    return 2 * chars + 400 * (this.byId.size + this.retired.size) + 120 * this.bm25.termCount + this.cited.bytes();
  }

  stats(): ChunkIndexStats {
    let textBytes = 0;
    for (const c of this.byId.values()) textBytes += Buffer.byteLength(c.text);
    const counts = this.kindCounts();
    return {
      chunk_count: this.byId.size,
      chunk_kinds: counts.kinds,
      invariant_tiers: counts.tiers,
      file_count: this.files.size,
      bm25_terms: this.bm25.termCount,
      text_bytes: textBytes,
      indexed_head: this.indexedHead,
      built_at: this.builtAt,
      schema_version: CHUNK_SCHEMA_VERSION,
    };
  }
}
