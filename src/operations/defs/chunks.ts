/**
 * Chunk search: search_code over chunks cut at the catalog's exact symbol
 * ranges, with citations and stale detection; `search`, the same search in the earlier shape some clients ask for by name;
 * verify_citation; index_stats. Handlers are thin: service/chunk-search.ts and citations.ts answer.
 */
import { z } from 'zod';

import { CHUNK_KINDS, type ChunkKind } from '../../chunks/types.js';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { ServiceCall } from '../../service/call.js';
import { READ_ONLY } from '../annotations.js';
import { CitationSchema, IndexStatsOutput, SearchCodeOutput, SearchOutput, TierSchema, VerifyCitationOutput } from '../contracts/chunks.js';
import { indexStatsMarkdown, searchCodeMarkdown, searchMarkdown, verifyCitationMarkdown } from '../render/chunks.js';
import { defineOperation, type Operation } from '../types.js';

const ChunkKindSchema = z.enum(CHUNK_KINDS as [ChunkKind, ...ChunkKind[]]);

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
  output: SearchCodeOutput,
  annotations: READ_ONLY,
  repl: { command: 'code', positional: ['query'] },
  profile: 'core',
  handler: async (input, ctx) => (await import('../../service/search/chunk-search.js')).searchCode(ServiceCall.from(ctx), input),
  markdown: searchCodeMarkdown,
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
  output: SearchOutput,
  annotations: READ_ONLY,
  // the code search in another shape: listed only when asked for by name
  profile: 'name',
  handler: async (input, ctx) => {
    const call = ServiceCall.from(ctx);
    const dir = input.directory?.replace(/^\.?\/+|\/+$/g, '');
    const r = await (
      await import('../../service/search/chunk-search.js')
    ).searchCode(call, {
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
  markdown: searchMarkdown,
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
  output: VerifyCitationOutput,
  annotations: READ_ONLY,
  handler: async (input, ctx) =>
    (await import('../../service/search/citations.js')).verifyCitation(ServiceCall.from(ctx), input.citation, input.content_sha256),
  markdown: verifyCitationMarkdown,
});

export const indexStatsOp = defineOperation({
  name: 'index_stats',
  title: 'Chunk index statistics',
  description:
    'The code-search index: chunk counts (in all and per kind), file and term counts, text bytes, ' +
    "indexed HEAD and time, schema version; the vector index's model, dimension and whether it matches " +
    'the embedder in use (else code search answers INDEX_MISMATCH until `reindex`); bytes on disk.',
  input: z.object({}),
  output: IndexStatsOutput,
  annotations: READ_ONLY,
  handler: async (_input, ctx) => (await import('../../service/search/citations.js')).indexStats(ServiceCall.from(ctx)),
  markdown: indexStatsMarkdown,
});

export const chunkOperations: Operation[] = [searchCodeOp, searchOp, verifyCitationOp, indexStatsOp];
