/**
 * Chunk search (seed 004, issue 12): search_code over chunks cut at the catalog's exact symbol
 * ranges, with citations and stale detection; `search`, seed 003's shape of the same search;
 * verify_citation; index_stats. Handlers are thin: service/chunk-search.ts and citations.ts answer.
 */
import { z } from 'zod';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { searchCode } from '../../service/search/chunk-search.js';
import { indexStats, verifyCitation } from '../../service/search/citations.js';
import { defineOperation, type Operation } from '../types.js';

const CitationSchema = z.object({ file: z.string().min(1).max(4096), start_line: z.number().int().min(1), end_line: z.number().int().min(1), commit_hash: z.string().max(64) });

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
  chunk_kind: z.enum(['symbol', 'function_split', 'file_header', 'doc']),
  commit_hash: z.string(),
  content_sha256: z.string(),
  signature: z.string().optional(),
  text: z.string().optional().describe('Only with include_text'),
});

const HitSchema = z.object({
  chunk: ChunkSchema,
  citation: CitationSchema,
  score: z.object({ normalized: z.number(), vector_distance: z.number(), vector_rank: z.number().int(), bm25_score: z.number(), hybrid_rank: z.number().int() }),
  stale_citation: z.boolean(),
  preview: z.object({ start_line: z.number().int(), lines: z.array(z.string()).max(10) }),
  symbol: z.object({ symbol_id: z.string(), name: z.string(), kind: z.string(), signature: z.string() }).optional(),
});

const FilterSchema = z.object({
  language: z.string().max(50).optional(),
  path: z.string().max(500).optional().describe('Glob over the relative path; `**` crosses directories (`src/**/*.ts`)'),
  symbol_kinds: z.array(SymbolKindSchema).max(20).optional(),
  commit_hash: z.string().max(64).optional().describe('Only chunks indexed at this commit (prefix)'),
});

const Query = z.string().min(1).max(2000);

export const searchCodeOp = defineOperation({
  name: 'search_code',
  title: 'Search code (ranked chunks with citations)',
  description:
    'Natural-language or keyword search over code chunks (whole functions, methods, types; long functions in pieces; import headers; Markdown sections), ranked by BM25 with a code-aware tokenizer (camelCase, snake_case, paths, dotted names), by vectors, or both fused (`mode: hybrid`). Every hit has a citation {file, start_line, end_line, commit_hash}; `stale_citation` is true when the cited lines changed or HEAD moved. Pass a hit\'s `symbol.symbol_id` to find_type_definition / get_function_details / get_symbol for the structure. `include_text` adds each chunk\'s text.',
  input: z.object({
    query: Query,
    filter: FilterSchema.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('Default 10'),
    mode: z.enum(['bm25', 'vector', 'hybrid']).optional().describe('Default: hybrid when LSPGATE_EMBED_URL configures an embedder, else bm25. vector = cosine over embeddings (the configured embedder, else the model-free local one); hybrid = reciprocal-rank fusion of both'),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    include_text: z.boolean().optional(),
    reindex: z.boolean().optional().describe('Drop the stored vector index and rebuild it with the embedder in use (the fix for INDEX_MISMATCH)'),
  }),
  output: withMeta({ query: z.string(), mode: z.enum(['bm25', 'vector', 'hybrid']), hits: z.array(HitSchema), total: z.number().int() }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  repl: { command: 'code', positional: ['query'] },
  handler: (input, ctx) => searchCode(ServiceCall.from(ctx), input),
  markdown: (r) =>
    [
      `## ${r.hits.length} hit(s) for "${r.query}" (${r.mode})`,
      '',
      ...r.hits.map((h) => `- ${h.citation.file}:${h.citation.start_line}-${h.citation.end_line} ${h.chunk.symbol_name ?? ''} (${h.chunk.chunk_kind}, ${h.score.normalized.toFixed(2)})${h.stale_citation ? ' **stale**' : ''}${h.symbol ? ` \`${h.symbol.symbol_id}\`` : ''}`),
    ].join('\n') + '\n',
});

const SearchResultSchema = z.object({
  anchor: z.object({ file: z.string(), line: z.number().int().min(1), column: z.number().int().min(0).optional() }),
  preview: z.object({ lines: z.array(z.string()).min(1).max(10), startLine: z.number().int().min(1) }),
  score: z.number().min(0).max(1).optional(),
});

export const searchOp = defineOperation({
  name: 'search',
  title: 'Search code (seed 003 shape)',
  description: 'search_code answered in the anchor / preview / score shape: absolute file path and line of each hit, up to 10 lines of preview, a score in [0, 1]. `directory` narrows to a folder of the workspace.',
  input: z.object({ query: Query, directory: z.string().max(1000).optional(), language: z.string().max(50).optional(), limit: z.number().int().min(1).max(100).optional() }),
  output: withMeta({ query: z.string(), total: z.number().int().nonnegative(), returned: z.number().int().nonnegative(), results: z.array(SearchResultSchema) }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const call = ServiceCall.from(ctx);
    const dir = input.directory?.replace(/^\.?\/+|\/+$/g, '');
    const r = await searchCode(call, { query: input.query, limit: input.limit, filter: { ...(input.language ? { language: input.language } : {}), ...(dir ? { path: `${dir}/**` } : {}) } });
    const results = r.hits.map((h) => ({ anchor: { file: `${call.root}/${h.citation.file}`, line: h.citation.start_line }, preview: { lines: h.preview.lines, startLine: h.preview.start_line }, score: h.score.normalized }));
    return { query: r.query, total: r.total, returned: results.length, results };
  },
  markdown: (r) => [`## ${r.returned} of ${r.total} result(s)`, '', ...r.results.map((x) => `- ${x.anchor.file}:${x.anchor.line} (${(x.score ?? 0).toFixed(2)})`)].join('\n') + '\n',
});

export const verifyCitationOp = defineOperation({
  name: 'verify_citation',
  title: 'Verify a citation',
  description:
    'Whether a citation from search_code still holds: the cited lines hash to the cited content (`content_matches`), HEAD is still the cited commit (`commit_moved`), and, when the lines moved within the file, where they are now (`moved_to`). The cited content is `content_sha256` when given (pass the hit\'s `chunk.content_sha256`: the only way for a citation of uncommitted lines from another process), else the content this index handed the citation out for, else the cited lines at the cited commit (`judged_against` says which).',
  input: z.object({ citation: CitationSchema, content_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() }),
  output: withMeta({
    citation: CitationSchema,
    content_sha256: z.string(),
    current_head: z.string(),
    file_exists: z.boolean(),
    content_matches: z.boolean(),
    commit_moved: z.boolean(),
    stale: z.boolean(),
    judged_against: z.enum(['content_sha256', 'handed_out', 'commit']).describe('Where the cited content came from: the input, the hit this index handed out, or the cited lines at the cited commit (git)'),
    moved_to: CitationSchema.optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: (input, ctx) => verifyCitation(ServiceCall.from(ctx), input.citation, input.content_sha256),
  markdown: (r) =>
    `${r.citation.file}:${r.citation.start_line}-${r.citation.end_line}: ${r.stale ? 'stale' : 'holds'} (content ${r.content_matches ? 'matches' : 'differs'}, commit ${r.commit_moved ? `moved to ${r.current_head.slice(0, 12)}` : 'is HEAD'})${r.moved_to ? `; now at lines ${r.moved_to.start_line}-${r.moved_to.end_line}` : ''}\n`,
});

export const indexStatsOp = defineOperation({
  name: 'index_stats',
  title: 'Chunk index statistics',
  description:
    'The search index of the workspace (seed 004 Stats): chunk and file counts, BM25 terms, text bytes, the HEAD it was indexed at, when, the schema version; the stored vector index: embedding model and dimension, embedder checksum and whether it matches the embedder in use (else search_code answers INDEX_MISMATCH until `reindex`), vectors stored; bytes on disk (catalog snapshot + vectors).',
  input: z.object({}),
  output: withMeta({
    chunk_count: z.number().int(),
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
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: (_input, ctx) => indexStats(ServiceCall.from(ctx)),
  markdown: (r) =>
    `${r.chunk_count} chunks in ${r.file_count} files, ${r.bm25_terms} terms, ${r.text_bytes} bytes; embeddings: ${r.embedding_model} (dim ${r.embedding_dim}, ${r.vector_count} vectors${r.embedder_matches ? '' : ', built by another embedder: reindex'}); ${r.index_size_bytes} bytes on disk; HEAD ${r.indexed_head || '(not git)'}; built ${r.built_at}\n`,
});

export const chunkOperations: Operation[] = [searchCodeOp, searchOp, verifyCitationOp, indexStatsOp];
