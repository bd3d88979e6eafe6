/**
 * The contract of get_context: its result schema and type.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { CONTEXT_PARTS } from '../../service/context/context-budget.js';

export const PartSchema = z.enum(CONTEXT_PARTS);

export const RefSchema = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  proximity: z.enum(['same_file', 'same_dir', 'elsewhere']).describe('Where it is, seen from the symbol: ranked nearest first'),
  symbol_id: z.string().optional(),
  signature: z.string().optional(),
  summary: z.string().optional().describe('First sentence of its doc comment'),
  call_lines: z.array(z.number().int()).describe('Lines of the calls, in the calling file'),
});

export const TypeSchema = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  symbol_id: z.string().optional(),
  signature: z.string().optional(),
  summary: z.string().optional(),
});

export const SiteSchema = z.object({ file: z.string(), line: z.number().int(), container: z.string().optional().describe('Enclosing function / class') });

export const OmittedSchema = z.object({
  part: PartSchema,
  count: z.number().int().describe('Items left out (lines, for source)'),
  fetch: z.object({ operation: z.string(), input: z.record(z.string(), z.unknown()) }).describe('The call that returns what was left out'),
});

export type Ref = z.infer<typeof RefSchema>;

export type Site = z.infer<typeof SiteSchema>;

export type TypeRow = z.infer<typeof TypeSchema>;
export type Omitted = z.infer<typeof OmittedSchema>;

export const GetContextOutput = withMeta({
  symbol: z.string(),
  symbol_id: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  signature: z.string(),
  summary: z.string().optional(),
  invariants: z
    .array(
      z.object({
        // 1..3 as a number: a union of literals lists three schemas in the default profile
        tier: z.number().int().min(1).max(3),
        marker: z.string(),
        text: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        chunk_id: z.string(),
        provenance: z.string().optional(),
      }),
    )
    .describe('What must not break: invariants in its lines or the comment above (tier 1 marker, 2 convention, 3 heuristic)'),
  // {category, also_review, required_tests, watch_out}; [{flow_id, step_id, trigger, invariants, unresolved}]
  guidance: z.unknown().optional(),
  flows: z.unknown().optional(),
  source: z.object({ start_line: z.number().int(), end_line: z.number().int(), text: z.string() }).optional(),
  callers: z.array(RefSchema).optional(),
  callees: z.array(RefSchema).optional(),
  types: z.array(TypeSchema).optional(),
  tests: z.array(SiteSchema).optional(),
  references: z.array(SiteSchema).optional(),
  truncated: z.boolean().describe('Something asked for did not fit max_tokens (see omitted)'),
  omitted: z.array(OmittedSchema),
});
export type GetContextResult = z.infer<typeof GetContextOutput>;
