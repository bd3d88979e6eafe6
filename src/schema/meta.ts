/** The `_meta` envelope every result carries (its fields are the public contract: clients read them by these names). */
import { z } from 'zod';

/**
 * Which catalog answered, and how complete it is: `ready` (every language server involved was ready
 * and the catalog is complete), `partial` (some files could not be cataloged), `indexing` (a server
 * was still loading its project), `syntax` (answered from syntax trees — tree-sitter and the
 * language's profile — while its server catalogs, or where no server catalogs the language).
 */
export const IndexStateSchema = z.enum(['ready', 'indexing', 'partial', 'syntax']);
export type IndexState = z.infer<typeof IndexStateSchema>;

export const ServerRefSchema = z.object({
  id: z.string(),
  root: z.string(),
  state: z.string(),
});

export const LimitHitSchema = z.object({
  limit: z.string().describe('Which limit: max_results, max_tokens, max_file_size, max_files, ...'),
  value: z.number(),
  detail: z.string().optional(),
});
export type LimitHit = z.infer<typeof LimitHitSchema>;

export const AlternativeSchema = z.object({
  symbol_id: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  scope: z.enum(['module', 'member', 'local']).describe('Where it is declared: module-level, a class member, or local to a function body / callback'),
  role: z.enum(['source', 'test', 'example', 'doc', 'bench']).describe('What its file is for'),
});
export type SymbolAlternative = z.infer<typeof AlternativeSchema>;

export const MetaSchema = z.object({
  timing_ms: z.number(),
  workspace: z.string(),
  truncated: z.boolean(),
  next_cursor: z.string().optional(),
  tokens_saved: z.number().int(),
  total_tokens_saved: z.number().int(),
  index_state: IndexStateSchema,
  servers: z.array(ServerRefSchema),
  limits_hit: z.array(LimitHitSchema).optional(),
  content_verified: z.boolean().optional(),
  warnings: z.array(z.string()).optional(),
  alternatives: z
    .array(AlternativeSchema)
    .optional()
    .describe(
      'Other declarations with the name asked for, ranked, when one was ahead of them and answered (ask again with a symbol_id to pick one; `strict: true` never picks)',
    ),
  cached: z
    .boolean()
    .optional()
    .describe('true: the whole answer came from the operation cache (every file, server and catalog stamp it depends on was re-checked)'),
});
export type Meta = z.infer<typeof MetaSchema>;

/** Adds `_meta` to an operation's result schema: every output schema is built with this. */
export function withMeta<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...shape, _meta: MetaSchema });
}
