/**
 * The compact outline nodes of get_file_outline's `names` and `signatures` details: what an
 * agent needs to find its way in a file (kind, name, signature, line range, nesting) without the
 * ids and descriptions of `full`, so an outline costs a fraction of the file it describes.
 */
import { z } from 'zod';

import { SymbolKindSchema } from './descriptors.js';

export const OutlineDetailSchema = z.enum(['names', 'signatures', 'full']);
export type OutlineDetail = z.infer<typeof OutlineDetailSchema>;

export interface CompactOutlineNode {
  kind: z.infer<typeof SymbolKindSchema>;
  name: string;
  signature?: string;
  /** 1-based first and last line of the declaration: [first, last]. */
  lines: number[];
  children?: CompactOutlineNode[];
}

export const CompactOutlineNodeSchema: z.ZodType<CompactOutlineNode> = z.lazy(() =>
  z.object({
    kind: SymbolKindSchema,
    name: z.string(),
    signature: z.string().optional(),
    // Two numbers as an array of length 2, not a tuple: a tuple's JSON Schema (prefixItems + items: false)
    // reads as "no items" to draft-07 validators such as the 1.x SDK client's, which then rejected every outline.
    lines: z.array(z.number().int()).length(2).describe('First and last line (1-based)'),
    children: z.array(CompactOutlineNodeSchema).optional(),
  }),
);
