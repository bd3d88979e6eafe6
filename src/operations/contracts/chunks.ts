/**
 * Contracts of the chunk search operations: their result schemas and types.
 */
import { z } from 'zod';

import { type InvariantTier } from '../../chunks/types.js';
import { withMeta } from '../../schema/meta.js';

export const CitationSchema = z.object({
  file: z.string().min(1).max(4096),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  commit_hash: z.string().max(64),
});

// a number, not a union of literals: the same contract in a third of the tools/list tokens
export const TierSchema = z.number().int().min(1).max(3) as unknown as z.ZodType<InvariantTier>;

export const ChunkSchema = z.object({
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

export const HitSchema = z.object({
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

export const SearchResultSchema = z.object({
  anchor: z.object({ file: z.string(), line: z.number().int().min(1), column: z.number().int().min(0).optional() }),
  preview: z.object({ lines: z.array(z.string()).min(1).max(10), startLine: z.number().int().min(1) }),
  score: z.number().min(0).max(1).optional(),
});

export const SearchCodeOutput = withMeta({ query: z.string(), mode: z.enum(['bm25', 'vector', 'hybrid']), hits: z.array(HitSchema), total: z.number().int() });
export type SearchCodeResult = z.infer<typeof SearchCodeOutput>;

export const SearchOutput = withMeta({
  query: z.string(),
  total: z.number().int().nonnegative(),
  returned: z.number().int().nonnegative(),
  results: z.array(SearchResultSchema),
});
export type SearchResult = z.infer<typeof SearchOutput>;

export const VerifyCitationOutput = withMeta({
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
});
export type VerifyCitationResult = z.infer<typeof VerifyCitationOutput>;

export const IndexStatsOutput = withMeta({
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
});
export type IndexStatsResult = z.infer<typeof IndexStatsOutput>;
