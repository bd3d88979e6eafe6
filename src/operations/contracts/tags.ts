/**
 * The contract of tag_elements: its result schema and type.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { type ElementType, TAG_CODES } from '../../service/editing/tag-plan.js';

export const ELEMENT_TYPES = Object.keys(TAG_CODES) as [ElementType, ...ElementType[]];

export const TagElementsOutput = withMeta({
  success: z.boolean(),
  dry_run: z.boolean(),
  path: z.string(),
  text: z.string().describe("'Tagged N elements in M files:' and counts per tag"),
  counts: z.record(z.string(), z.number().int()).describe('Elements tagged (or to tag) per element type'),
  total: z.number().int(),
  elements: z.array(
    z.object({
      file: z.string(),
      line: z.number().int().describe('Line of the declaration name before tagging'),
      name: z.string(),
      qualified_name: z.string(),
      symbol_id: z.string(),
      element_type: z.enum(ELEMENT_TYPES),
      tag: z.string(),
      action: z.enum(['tag', 'retag', 'skip']),
    }),
  ),
  files: z.array(z.object({ file: z.string(), content_hash: z.string(), new_hash: z.string().optional(), tags: z.number().int(), diff: z.string() })),
  backup_dir: z.string().optional().describe('Where the originals of the written files were copied (writes only)'),
});
export type TagElementsResult = z.infer<typeof TagElementsOutput>;
