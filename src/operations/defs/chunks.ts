/**
 * Chunk search: search_code over chunks cut at the catalog's exact symbol
 * ranges, with citations and stale detection; `search`, the same search in the earlier shape some clients ask for by name;
 * verify_citation; index_stats. Handlers are thin: service/chunk-search.ts and citations.ts answer.
 */
import { z } from 'zod';

import { CHUNK_KINDS, type ChunkKind, type InvariantTier } from '../../chunks/types.js';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { searchCode } from '../../service/search/chunk-search.js';
import { indexStats, verifyCitation } from '../../service/search/citations.js';
import { READ_ONLY } from '../annotations.js';
import { corpusLines } from '../render/must-keep-lines.js';
import { defineOperation, type Operation } from '../types.js';

const CitationSchema = z.object({
  file: z.string().min(1).max(4096),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  commit_hash: z.string().max(64),
});

const ChunkKindSchema = z.enum(CHUNK_KINDS as [ChunkKind, ...ChunkKind[]]);
// a number, not a union of literals: the same contract in a third of the tools/list tokens
const TierSchema = z.number().int().min(1).max(3) as unknown as z.ZodType<InvariantTier>;

const ChunkSchema = z.object({
  id: z.string(),
  file: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  language: z.string(),
  is_test: z.boolean(),
  symbol_name: z.string().optional(),
  // output kinds as strings (the input filters list the values): the enums would be listed twice
  symbol_kind: z.string().optional(),
  symbol_id: z.string().optional(),
  chunk_kind: z.string(),
  commit_hash: z.string(),
  content_sha256: z.string(),
  signature: z.string().optional(),
  invariants: z.array(z.unknown()).optional().describe('Source chunks: their invariants'),
  tier: TierSchema.optional().describe('1 marker (CRITICAL, Deprecated:), 2 convention (INVARIANT:), 3 heuristic'),
  marker: z.string().optional(),
  provenance: z.enum(['auto', 'curated']).optional(),
  convention_stats: z.record(z.string(), z.number()).optional(),
  committed_at_utc: z.string().optional(),
  recent_prs: z.array(z.unknown()).optional().describe('PRs that touched the file, newest first'),
  // policy and flow corpus fields (seed 004's), unknown for the default profile's size; unresolved: the names a curated chunk holds that no longer resolve
  category: z.unknown().optional(),
  guidance: z.unknown().optional(),
  flow_step: z.unknown().optional(),
  flow_spine: z.unknown().optional(),
  enforced_at: z.unknown().optional(),
  unresolved: z.unknown().optional(),
  text: z.string().optional().describe('Only with include_text'),
});

const HitSchema = z.object({
  chunk: ChunkSchema,
  citation: CitationSchema,
  score: z.object({
    normalized: z.number(),
    vector_distance: z.number(),
    vector_rank: z.number().int(),
    bm25_score: z.number(),
    hybrid_rank: z.number().int(),
  }),
  stale_citation: z.boolean(),
  preview: z.object({ start_line: z.number().int(), lines: z.array(z.string()).max(10) }),
  symbol: z.object({ symbol_id: z.string(), name: z.string(), kind: z.string(), signature: z.string() }).optional(),
  duplicates: z
    .object({ count: z.number().int().min(1), citations: z.array(CitationSchema).max(10) })
    .optional()
    .describe('Identical chunks elsewhere, folded into this hit'),
  pieces: z.array(z.string()).optional().describe('Lines (`start-end`) of the other matching pieces of this split function'),
});

// strict: a filter key search_code does not know is INVALID_INPUT naming it, never a filter silently not applied
const FilterSchema = z
  .object({
    language: z.string().max(50).optional(),
    path: z.string().max(500).optional().describe('Glob (`src/**/*.ts`)'),
    symbol_kinds: z.array(SymbolKindSchema).max(20).optional(),
    commit_hash: z.string().max(64).optional().describe('Indexed at this commit (prefix)'),
    is_test: z.boolean().optional().describe('true: test files only; false: none'),
    chunk_kinds: z.array(ChunkKindSchema).max(20).optional().describe('History kinds only when named'),
    tier: z.array(TierSchema).max(3).optional().describe('Invariant tiers'),
    as_of: z
      .string()
      .max(40)
      .refine((v) => !Number.isNaN(Date.parse(v)), 'an ISO 8601 date or time')
      .optional()
      .describe('History cutoff (ISO 8601)'),
    symbol: z.string().max(1000).optional().describe('Name or id'),
  })
  .strict();

const Query = z.string().min(1).max(2000);

export const searchCodeOp = defineOperation({
  name: 'search_code',
  title: 'Search code (ranked chunks with citations)',
  description:
    'Find code by what it does: ranked search over code chunks (functions, types, docs), invariants and ' +
    'curated flows (`filter.chunk_kinds`; query `*` lists a filter). Hits cite file, lines, commit.',
  related: { search_symbols: 'by name', search_text: 'for an exact string', verify_citation: 'to check a citation later' },
  input: z.object({
    query: Query,
    filter: FilterSchema.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('Default 10'),
    mode: z.enum(['bm25', 'vector', 'hybrid']).optional().describe('Default: hybrid with an embedder, else bm25'),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    include_text: z.boolean().optional(),
    reindex: z.boolean().optional().describe('Fixes INDEX_MISMATCH'),
    recent_prs: z.boolean().optional().describe('PRs that touched each hit'),
  }),
  output: withMeta({ query: z.string(), mode: z.enum(['bm25', 'vector', 'hybrid']), hits: z.array(HitSchema), total: z.number().int() }),
  annotations: READ_ONLY,
  repl: { command: 'code', positional: ['query'] },
  profile: 'core',
  handler: (input, ctx) => searchCode(ServiceCall.from(ctx), input),
  markdown: (r) =>
    [
      `## ${r.hits.length} hit(s) for "${r.query}" (${r.mode})`,
      '',
      ...r.hits.map(
        (h) =>
          `- ${h.citation.file}:${h.citation.start_line}-${h.citation.end_line} ${h.chunk.symbol_name ?? ''} (${h.chunk.chunk_kind}${h.chunk.tier ? ` tier ${h.chunk.tier} ${h.chunk.marker ?? ''}` : ''}, ${h.score.normalized.toFixed(2)})${h.stale_citation ? ' **stale**' : ''}${h.symbol ? ` \`${h.symbol.symbol_id}\`` : ''}${h.pieces ? ` (also lines ${h.pieces.join(', ')})` : ''}`,
      ),
    ].join('\n') + '\n',
});

const SearchResultSchema = z.object({
  anchor: z.object({ file: z.string(), line: z.number().int().min(1), column: z.number().int().min(0).optional() }),
  preview: z.object({ lines: z.array(z.string()).min(1).max(10), startLine: z.number().int().min(1) }),
  score: z.number().min(0).max(1).optional(),
});

export const searchOp = defineOperation({
  name: 'search',
  title: 'Search code (anchor / preview shape)',
  description:
    "Code-chunk search answered in the anchor / preview / score shape: each hit's absolute path and " +
    'line, up to 10 preview lines, a score in [0, 1]; `directory` narrows to a folder.',
  related: { search_code: 'for the same search with citations' },
  input: z.object({
    query: Query,
    directory: z.string().max(1000).optional(),
    language: z.string().max(50).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  output: withMeta({
    query: z.string(),
    total: z.number().int().nonnegative(),
    returned: z.number().int().nonnegative(),
    results: z.array(SearchResultSchema),
  }),
  annotations: READ_ONLY,
  // the code search in another shape: listed only when asked for by name
  profile: 'name',
  handler: async (input, ctx) => {
    const call = ServiceCall.from(ctx);
    const dir = input.directory?.replace(/^\.?\/+|\/+$/g, '');
    const r = await searchCode(call, {
      query: input.query,
      limit: input.limit,
      // an anchor is a line of a file: the code and doc kinds, as this shape always answered
      filter: {
        chunk_kinds: ['symbol', 'function_split', 'file_header', 'doc'],
        ...(input.language ? { language: input.language } : {}),
        ...(dir ? { path: `${dir}/**` } : {}),
      },
    });
    const results = r.hits.map((h) => ({
      anchor: { file: `${call.root}/${h.citation.file}`, line: h.citation.start_line },
      preview: { lines: h.preview.lines, startLine: h.preview.start_line },
      score: h.score.normalized,
    }));
    return { query: r.query, total: r.total, returned: results.length, results };
  },
  markdown: (r) =>
    [`## ${r.returned} of ${r.total} result(s)`, '', ...r.results.map((x) => `- ${x.anchor.file}:${x.anchor.line} (${(x.score ?? 0).toFixed(2)})`)].join('\n') +
    '\n',
});

export const verifyCitationOp = defineOperation({
  name: 'verify_citation',
  answersFrom: 'text',
  title: 'Verify a citation',
  description:
    'Whether a code-search citation still holds: the cited lines still hash to the cited content ' +
    '(`content_matches`), HEAD is still its commit (`commit_moved`), and where the lines moved within ' +
    "the file (`moved_to`). Pass the hit's `chunk.content_sha256` for a citation from another process; " +
    '`judged_against` says what the lines were compared with.',
  input: z.object({
    citation: CitationSchema,
    content_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  }),
  output: withMeta({
    citation: CitationSchema,
    content_sha256: z.string(),
    current_head: z.string(),
    file_exists: z.boolean(),
    content_matches: z.boolean(),
    commit_moved: z.boolean(),
    stale: z.boolean(),
    judged_against: z
      .enum(['content_sha256', 'handed_out', 'commit'])
      .describe('Where the cited content came from: the input, the hit this index handed out, or the cited lines at the cited commit (git)'),
    moved_to: CitationSchema.optional(),
  }),
  annotations: READ_ONLY,
  handler: (input, ctx) => verifyCitation(ServiceCall.from(ctx), input.citation, input.content_sha256),
  markdown: (r) =>
    `${r.citation.file}:${r.citation.start_line}-${r.citation.end_line}: ${r.stale ? 'stale' : 'holds'} (content ${r.content_matches ? 'matches' : 'differs'}, commit ${r.commit_moved ? `moved to ${r.current_head.slice(0, 12)}` : 'is HEAD'})${r.moved_to ? `; now at lines ${r.moved_to.start_line}-${r.moved_to.end_line}` : ''}\n`,
});

export const indexStatsOp = defineOperation({
  name: 'index_stats',
  title: 'Chunk index statistics',
  description:
    'The code-search index: chunk counts (in all and per kind), file and term counts, text bytes, ' +
    "indexed HEAD and time, schema version; the vector index's model, dimension and whether it matches " +
    'the embedder in use (else code search answers INDEX_MISMATCH until `reindex`); bytes on disk.',
  input: z.object({}),
  output: withMeta({
    chunk_count: z.number().int(),
    chunk_kinds: z
      .record(z.string(), z.number().int())
      .describe(
        'Chunks per kind (symbol, function_split, file_header, doc, invariant, …); a kind with none is absent; the history kinds once a search asked for them',
      ),
    invariant_tiers: z.record(z.string(), z.number().int()).describe('Invariant chunks per tier (1, 2, 3)'),
    file_count: z.number().int(),
    bm25_terms: z.number().int(),
    text_bytes: z.number().int(),
    embedding_model: z.string(),
    embedding_dim: z.number().int(),
    embedder_checksum: z.string(),
    embedder_matches: z.boolean(),
    vector_count: z.number().int(),
    vector_index_bytes: z.number().int(),
    catalog_bytes: z.number().int(),
    index_size_bytes: z.number().int(),
    indexed_head: z.string(),
    built_at: z.string(),
    schema_version: z.string(),
    flow_corpus: z
      .unknown()
      .optional()
      .describe(
        'The flow corpus (--flow-corpus or .lspgate/corpus.jsonl): {file, flows, steps, curated_invariants, ' +
          'unresolved: [{line, flow, step, invariant, field, ref}] (names the catalog no longer resolves: ' +
          'stale citations), unresolved_count, problems}, or {file, problem}',
      ),
    policy: z
      .unknown()
      .optional()
      .describe('The policy (--policy or .lspgate/policy.json): {file, rules, categories (chunks per category), problems}, or {file, problem}'),
  }),
  annotations: READ_ONLY,
  handler: (_input, ctx) => indexStats(ServiceCall.from(ctx)),
  markdown: (r) =>
    `${r.chunk_count} chunks (${Object.entries(r.chunk_kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(
        ', ',
      )}) in ${r.file_count} files, ${r.bm25_terms} terms, ${r.text_bytes} bytes; embeddings: ${r.embedding_model} (dim ${r.embedding_dim}, ${r.vector_count} vectors${r.embedder_matches ? '' : ', built by another embedder: reindex'}); ${r.index_size_bytes} bytes on disk; HEAD ${r.indexed_head || '(not git)'}; built ${r.built_at}\n${corpusLines(r.flow_corpus, r.policy)}`,
});

export const chunkOperations: Operation[] = [searchCodeOp, searchOp, verifyCitationOp, indexStatsOp];
