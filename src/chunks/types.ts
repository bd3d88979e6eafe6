/**
 * The chunk contracts (Chunk, Citation, Filter, Hit, HitScore, Stats), restricted to the fields
 * lspgate fills. Field names are the public JSON names search_code's clients read, never renamed;
 * a Chunk maps onto the descriptors' CodeChunk (Type ← symbol_kind, Name ← symbol_name,
 * FilePath ← file, StartLine/EndLine, Code ← text).
 */
import type { SymbolKind } from '../schema/descriptors.js';

export type ChunkKind =
  | 'symbol'
  | 'function_split'
  | 'file_header'
  | 'doc'
  | 'invariant'
  | 'convention'
  | 'commit_message'
  | 'pr_background'
  | 'pr_solution'
  | 'flow_spine'
  | 'flow_step';

export const CHUNK_KINDS: readonly ChunkKind[] = [
  'symbol',
  'function_split',
  'file_header',
  'doc',
  'invariant',
  'convention',
  'commit_message',
  'pr_background',
  'pr_solution',
  'flow_spine',
  'flow_step',
];

/** How an invariant was found: 1 an existing marker (CRITICAL, IMPORTANT, WARNING, Deprecated:, @deprecated), 2 a convention marker (INVARIANT:, CONSENSUS:, SECURITY:), 3 a heuristic (a panic / raise / throw whose message states a policy). */
export type InvariantTier = 1 | 2 | 3;

/** A pull request that touched a chunk's file. */
export interface PRRef {
  number: number;
  title: string;
  merged_at_utc?: string;
}

/** Kinds read from git history: searched only when `chunk_kinds` names them. */
export const HISTORY_KINDS: readonly ChunkKind[] = ['commit_message', 'pr_background', 'pr_solution'];

/** One conditional edge of a flow step: under `when`, control goes to `then` at `at` (a symbol, `file` or `file:line`). */
export interface Branch {
  when: string;
  then: string;
  at: string;
}

/** Where a curated invariant is enforced: a step of a flow, at a code location. */
export interface EnforcePoint {
  flow: string;
  step: string;
  loc: string;
}

/** A flow's backbone (flow_spine chunks): its entry point, what triggers it, the flows it links to. */
export interface FlowSpineMeta {
  flow_id: string;
  entry_point?: string;
  trigger?: string;
  root_symbol?: string;
  links?: string[];
  called_by?: string[];
}

/** One step of a flow (flow_step chunks): the symbol it runs at, what it calls, reads, writes, emits, its branches, the invariant ids it keeps. */
export interface FlowStepMeta {
  flow_id: string;
  step_id: string;
  symbol?: string;
  kind?: string;
  calls?: string[];
  reads?: string;
  writes?: string;
  emits?: string;
  branches?: Branch[];
  invariants?: string[];
}

/** A policy's advice for a chunk's path category: informative, never enforced. */
export interface ModificationGuidance {
  also_review?: string[];
  required_tests?: string[];
  watch_out?: string[];
}

/** A source chunk's pointer to an invariant chunk in (or right above) its lines. */
export interface InvariantRef {
  chunk_id: string;
  tier: InvariantTier;
  /** CRITICAL, Deprecated, INVARIANT, panic … */
  marker?: string;
}

export interface Chunk {
  /** chunkId(file, start_line, end_line, content_sha256). */
  id: string;
  /** Workspace-relative with `/`. */
  file: string;
  /** 1-based, inclusive. */
  start_line: number;
  end_line: number;
  language: string;
  is_test: boolean;
  symbol_name?: string;
  symbol_kind?: SymbolKind;
  /** The catalog symbol the chunk is (or is a piece of): find_type_definition / get_function_details take it. */
  symbol_id?: string;
  chunk_kind: ChunkKind;
  /** git HEAD when the chunk was made; '' outside git. */
  commit_hash: string;
  /** sha256 of `text` (the raw lines start_line..end_line joined by '\n', no normalisation). */
  content_sha256: string;
  text: string;
  /** The symbol's signature: heads the indexed text of every piece of a split function. */
  signature?: string;
  /** The symbol's doc comment (the catalog's; often outside the symbol's range): indexed, not cited. */
  docstring?: string;
  /** Source chunks: the invariant chunks in their lines or in the comment right above them. */
  invariants?: InvariantRef[];
  /** Invariant chunks: how they were found and by which marker; `auto` (extracted) or `curated` (a flow corpus). */
  tier?: InvariantTier;
  marker?: string;
  provenance?: 'auto' | 'curated';
  /** History chunks (commit_message, pr_background, pr_solution): when the commit was made, ISO 8601 UTC. */
  committed_at_utc?: string;
  /** Source chunks, when asked (search_code's recent_prs): the pull requests that touched the file, newest first. */
  recent_prs?: PRRef[];
  /** Convention chunks: the package's idiom counts (idioms.ts keys) and `files`. */
  convention_stats?: Record<string, number>;
  /** The policy's category for the chunk's path (policy.ts) and its guidance, set on a hit when it is handed out; absent when no rule matched. */
  category?: string;
  guidance?: ModificationGuidance;
  /** Flow corpus chunks (flow-corpus.ts). */
  flow_step?: FlowStepMeta;
  flow_spine?: FlowSpineMeta;
  /** Curated invariant chunks: the flow steps and code locations that enforce them. */
  enforced_at?: EnforcePoint[];
  /** Curated chunks: the symbols and locations they name that the catalog no longer resolves (a stale citation). */
  unresolved?: string[];
}

/** Kinds whose chunk quotes lines of a file in the workspace (its citation is checked against them); the others are derived text. */
const QUOTING = new Set<ChunkKind>(['symbol', 'function_split', 'file_header', 'doc', 'invariant', 'flow_spine', 'flow_step']);

/** A chunk citing a pseudo-path (`:git-log`, `:flow-corpus`) quotes no workspace file. */
export function quotesLines(c: Pick<Chunk, 'chunk_kind' | 'file'>): boolean {
  return QUOTING.has(c.chunk_kind) && !c.file.startsWith(':');
}

export interface Citation {
  file: string;
  start_line: number;
  end_line: number;
  commit_hash: string;
}

export interface ChunkFilter {
  language?: string;
  /** Glob over the workspace-relative path; `**` crosses directories. */
  path?: string;
  symbol_kinds?: string[];
  commit_hash?: string;
  /** true: test chunks only; false: no test chunks. */
  is_test?: boolean;
  /** Only chunks of these kinds. */
  chunk_kinds?: ChunkKind[];
  /** Only invariant chunks of these tiers. */
  tier?: InvariantTier[];
  /** Only chunks of this symbol: its qualified name or its symbol_id. */
  symbol?: string;
  /** ISO 8601: history chunks committed after it, and recent_prs merged after it, are left out. */
  as_of?: string;
}

export interface HitScore {
  /** Higher is better, in [0, 1]. */
  normalized: number;
  /** Cosine distance in [0, 2]; 0 when the hit has no vector rank. */
  vector_distance: number;
  /** 1-based among the vector hits; 0 when not ranked by vectors. */
  vector_rank: number;
  bm25_score: number;
  /** 1-based after reciprocal-rank fusion; 0 outside hybrid mode. */
  hybrid_rank: number;
}
export const CHUNK_SCHEMA_VERSION = '1.0';
/**
 * The chunker's version: bump it when the same bytes would be cut into other chunks (boundaries,
 * fields, text). A stored index cut by another version is re-chunked whole (chunk-fts.ts): the
 * same-hash skip alone would keep the old cuts of every file whose bytes did not change.
 */
export const CHUNKER_VERSION = '1';

export function citationOf(c: Chunk): Citation {
  return { file: c.file, start_line: c.start_line, end_line: c.end_line, commit_hash: c.commit_hash };
}
