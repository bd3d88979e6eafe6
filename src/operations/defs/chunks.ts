/**
 * Chunk search: search_code over chunks cut at the catalog's exact symbol
 * ranges, with citations and stale detection; `search`, the same search in the earlier shape some clients ask for by name;
 * verify_citation; index_stats. Handlers are thin: service/chunk-search.ts and citations.ts answer.
 */
import { z } from 'zod';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { searchCode } from '../../service/search/chunk-search.js';
import { indexStats, verifyCitation } from '../../service/search/citations.js';
import { CHUNK_KINDS, type ChunkKind } from '../../chunks/types.js';
import { READ_ONLY } from '../annotations.js';
import { defineOperation, type Operation } from '../types.js';

const CitationSchema = z.object({
  file: z.string().min(1).max(4096),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  commit_hash: z.string().max(64),
});

const ChunkKindSchema = z.enum(CHUNK_KINDS as [ChunkKind, ...ChunkKind[]]);
const TierSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

const ChunkSchema = z.object({
  id: z.string(),
  file: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  language: z.string(),
  is_test: z.boolean(),
  symbol_name: z.string().optional(),
  symbol_kind: SymbolKindSchema.optional(),
  symbol_id: z.string().optional(),
  chunk_kind: ChunkKindSchema,
  commit_hash: z.string(),
  content_sha256: z.string(),
  signature: z.string().optional(),
  invariants: z
    .array(z.object({ chunk_id: z.string(), tier: TierSchema, marker: z.string().optional() }))
    .optional()
    .describe('Source chunks: the invariant chunks in their lines or in the comment right above them'),
  tier: TierSchema.optional().describe('Invariant chunks: 1 existing marker (CRITICAL, WARNING, Deprecated:), 2 convention marker (INVARIANT:), 3 heuristic'),
  marker: z.string().optional(),
  provenance: z.enum(['auto', 'curated']).optional(),
  convention_stats: z.record(z.string(), z.number()).optional().describe("Convention chunks: the package's idiom counts"),
  committed_at_utc: z.string().optional().describe('History chunks: when the commit was made'),
  recent_prs: z
    .array(z.object({ number: z.number().int(), title: z.string(), merged_at_utc: z.string().optional() }))
    .optional()
    .describe('With recent_prs: the pull requests that touched the file, newest first'),
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
    .describe('Identical chunks elsewhere (the same declaration and text in copies of a file), folded into this hit: how many, and the first ones cited'),
});

// strict: a filter key search_code does not know is INVALID_INPUT naming it, never a filter silently not applied
const FilterSchema = z
  .object({
    language: z.string().max(50).optional(),
    path: z
      .string()
      .max(500)
      .optional()
      .describe(
        "Glob over the whole relative path: `*` stays in one directory (`*.go`: the root's Go files), `**` crosses directories (`**/*.go`, `src/**/*.ts`)",
      ),
    symbol_kinds: z.array(SymbolKindSchema).max(20).optional(),
    commit_hash: z.string().max(64).optional().describe('Only chunks indexed at this commit (prefix)'),
    is_test: z.boolean().optional().describe('true: only chunks of test files; false: none of them (the test-file rule of each language)'),
    chunk_kinds: z
      .array(ChunkKindSchema)
      .max(20)
      .optional()
      .describe(
        'Only chunks of these kinds: code (symbol, function_split, file_header), doc, invariant, convention; the history kinds (commit_message, pr_background, pr_solution: read from git log, the last 500 commits) are searched only when named here',
      ),
    tier: z.array(TierSchema).max(3).optional().describe('Only invariant chunks of these tiers (1 existing marker, 2 convention marker, 3 heuristic)'),
    as_of: z
      .string()
      .max(40)
      .refine((v) => !Number.isNaN(Date.parse(v)), 'an ISO 8601 date or time')
      .optional()
      .describe('Leave out history chunks committed after this time and recent_prs merged after it (ISO 8601)'),
    symbol: z.string().max(1000).optional().describe('Only chunks of this symbol (qualified name or symbol_id): its code pieces and its invariants'),
  })
  .strict();

const Query = z.string().min(1).max(2000);

export const searchCodeOp = defineOperation({
  name: 'search_code',
  title: 'Search code (ranked chunks with citations)',
  description:
    "Find code by what it does: natural-language or keyword search over code chunks (functions, types, Markdown sections) and the invariants their comments and raises state (`filter.chunk_kinds: [invariant]`; query `*` lists what the filter keeps, by file and line), ranked by BM25 with a code-aware tokenizer, by vectors, or both (`mode: hybrid`). Each hit has a citation (file, lines, commit) and `stale_citation` once its lines or HEAD changed; `include_text` adds the chunk's text.",
  related: { search_symbols: 'instead for declarations by name', search_text: 'instead for an exact string', verify_citation: 'to check a citation later' },
  input: z.object({
    query: Query,
    filter: FilterSchema.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('Default 10'),
    mode: z
      .enum(['bm25', 'vector', 'hybrid'])
      .optional()
      .describe(
        'Default: hybrid when LSPGATE_EMBED_URL configures an embedder, else bm25. vector = cosine over embeddings (the configured embedder, else the model-free local one); hybrid = reciprocal-rank fusion of both',
      ),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    include_text: z.boolean().optional(),
    reindex: z.boolean().optional().describe('Drop the stored vector index and rebuild it with the embedder in use (the fix for INDEX_MISMATCH)'),
    recent_prs: z
      .boolean()
      .optional()
      .describe("Give each hit recent_prs: the pull requests (merges titled 'Merge pull request #N', squashes ending '(#N)') that touched its file"),
  }),
  output: withMeta({ query: z.string(), mode: z.enum(['bm25', 'vector', 'hybrid']), hits: z.array(HitSchema), total: z.number().int() }),
  annotations: READ_ONLY,
  repl: { command: 'code', positional: ['query'] },
  profile: 'core',
  clientCases: { ok: [{ query: 'format a display name' }], errors: [{ args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' }] },
  handler: (input, ctx) => searchCode(ServiceCall.from(ctx), input),
  markdown: (r) =>
    [
      `## ${r.hits.length} hit(s) for "${r.query}" (${r.mode})`,
      '',
      ...r.hits.map(
        (h) =>
          `- ${h.citation.file}:${h.citation.start_line}-${h.citation.end_line} ${h.chunk.symbol_name ?? ''} (${h.chunk.chunk_kind}${h.chunk.tier ? ` tier ${h.chunk.tier} ${h.chunk.marker ?? ''}` : ''}, ${h.score.normalized.toFixed(2)})${h.stale_citation ? ' **stale**' : ''}${h.symbol ? ` \`${h.symbol.symbol_id}\`` : ''}`,
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
    "Code-chunk search answered in the anchor / preview / score shape: each hit's absolute path and line, up to 10 preview lines, a score in [0, 1]; `directory` narrows to a folder.",
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
  clientCases: { ok: [{ query: 'format a display name' }], errors: [{ args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' }] },
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
    "Whether a code-search citation still holds: the cited lines still hash to the cited content (`content_matches`), HEAD is still its commit (`commit_moved`), and where the lines moved within the file (`moved_to`). Pass the hit's `chunk.content_sha256` for a citation from another process; `judged_against` says what the lines were compared with.",
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
  clientCases: {
    ok: [{ citation: { file: 'src/util/strings.ts', start_line: 7, end_line: 9, commit_hash: '' }, content_sha256: '0'.repeat(64) }],
    errors: [{ args: { citation: { file: 'src/util/strings.ts', start_line: 9, end_line: 7, commit_hash: '' } }, code: 'INVALID_INPUT' }],
  },
  handler: (input, ctx) => verifyCitation(ServiceCall.from(ctx), input.citation, input.content_sha256),
  markdown: (r) =>
    `${r.citation.file}:${r.citation.start_line}-${r.citation.end_line}: ${r.stale ? 'stale' : 'holds'} (content ${r.content_matches ? 'matches' : 'differs'}, commit ${r.commit_moved ? `moved to ${r.current_head.slice(0, 12)}` : 'is HEAD'})${r.moved_to ? `; now at lines ${r.moved_to.start_line}-${r.moved_to.end_line}` : ''}\n`,
});

export const indexStatsOp = defineOperation({
  name: 'index_stats',
  title: 'Chunk index statistics',
  description:
    "The code-search index: chunk counts (in all and per kind), file and term counts, text bytes, indexed HEAD and time, schema version; the vector index's model, dimension and whether it matches the embedder in use (else code search answers INDEX_MISMATCH until `reindex`); bytes on disk.",
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
  }),
  annotations: READ_ONLY,
  clientCases: { ok: [{}] },
  handler: (_input, ctx) => indexStats(ServiceCall.from(ctx)),
  markdown: (r) =>
    `${r.chunk_count} chunks (${Object.entries(r.chunk_kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(
        ', ',
      )}) in ${r.file_count} files, ${r.bm25_terms} terms, ${r.text_bytes} bytes; embeddings: ${r.embedding_model} (dim ${r.embedding_dim}, ${r.vector_count} vectors${r.embedder_matches ? '' : ', built by another embedder: reindex'}); ${r.index_size_bytes} bytes on disk; HEAD ${r.indexed_head || '(not git)'}; built ${r.built_at}\n`,
});

export const chunkOperations: Operation[] = [searchCodeOp, searchOp, verifyCitationOp, indexStatsOp];
