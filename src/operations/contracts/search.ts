/**
 * Contracts of the symbol retrieval and search operations: their result schemas and types.
 */
import { z } from 'zod';

import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { symbolRowShape } from '../../schema/rows.js';

export const CatalogSymbolSchema = z.object({
  symbol_id: z.string(),
  file: z.string(),
  name: z.string(),
  qualified_name: z.string(),
  kind: SymbolKindSchema,
  lsp_kind: z.number().int(),
  language: z.string(),
  server: z.string(),
  signature: z.string(),
  summary: z.string(),
  docstring: z.string().optional(),
  parent: z.string().optional(),
  package: z.string().optional(),
  namespace: z.string().optional(),
  line: z.number().int(),
  end_line: z.number().int(),
  selection_line: z.number().int(),
  selection_column: z.number().int(),
  byte_offset: z.number().int(),
  byte_length: z.number().int(),
  content_hash: z.string(),
});

export const ContextSchema = z.object({ start_line: z.number().int(), end_line: z.number().int(), before: z.string(), after: z.string() });

export const SymbolSourceSchema = z.object({ symbol: CatalogSymbolSchema, source: z.string(), context: ContextSchema.optional() });
export type SymbolSource = z.infer<typeof SymbolSourceSchema>;

export const SearchHitSchema = z.object({
  ...symbolRowShape,
  kind: SymbolKindSchema,
  language: z.string(),
  end_line: z.number().int(),
  signature: z.string(),
  summary: z.string(),
  scope: z.enum(['module', 'member', 'local']).describe('Declared at module level, as a member of a type, or inside a function body'),
  score: z.number(),
});

export const TextMatchSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
});

export const GetSymbolOutput = withMeta({ symbol: CatalogSymbolSchema, source: z.string(), context: ContextSchema.optional() });
export type GetSymbolResult = z.infer<typeof GetSymbolOutput>;

export const GetSymbolsOutput = withMeta({
  symbols: z.array(SymbolSourceSchema),
  errors: z.array(z.object({ symbol_id: z.string().optional(), symbol: z.string().optional(), code: z.string(), message: z.string() })),
});
export type GetSymbolsResult = z.infer<typeof GetSymbolsOutput>;

export const SearchSymbolsOutput = withMeta({ results: z.array(SearchHitSchema), total: z.number().int() });
export type SearchSymbolsResult = z.infer<typeof SearchSymbolsOutput>;

export const SearchTextOutput = withMeta({ matches: z.array(TextMatchSchema), files_searched: z.number().int() });
export type SearchTextResult = z.infer<typeof SearchTextOutput>;
