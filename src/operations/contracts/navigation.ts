/**
 * Contracts of the navigation operations: their result schemas and types.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { treeNodeShape } from '../../schema/rows.js';
import { type CallNode } from '../../service/navigation/call-tree.js';
import { PreviewSchema } from '../../service/previews.js';

export const DefinitionSchema = z.object({
  symbol_id: z.string().optional(),
  name: z.string(),
  kind: z.string(),
  file: z.string().describe('Workspace-relative path (absolute when external)'),
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  container: z.string().optional().describe('Qualified name of the enclosing symbol'),
  external: z.boolean().optional().describe('Outside the workspace (standard library, dependency)'),
  preview: PreviewSchema.optional().describe('Absent for a file outside the workspace that is not library code'),
});

export const ReferenceSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  preview: PreviewSchema.optional().describe('Absent for a file outside the workspace that is not library code'),
  isWrite: z.boolean().describe('Assignment / update rather than a read'),
  container: z.string().optional().describe('Qualified name of the enclosing function or class'),
  external: z.boolean().optional(),
});

export type CallNodeShape = CallNode;
export type PreviewShape = z.infer<typeof PreviewSchema>;

export const CallSiteSchema = z.object({ line: z.number().int(), column: z.number().int(), preview: PreviewSchema });

export const CallNodeSchema: z.ZodType<CallNodeShape> = z.lazy(() =>
  z.object({
    ...treeNodeShape,
    calls: z.array(CallNodeSchema).optional(),
    call_sites: z.array(CallSiteSchema).optional(),
    children: z.array(CallNodeSchema).optional(),
  }),
);

export const treeOutput = withMeta({ symbol: z.string(), root: CallNodeSchema });

export const FindDefinitionOutput = withMeta({
  symbol: z.string(),
  found: z.boolean(),
  total: z.number().int().describe('Definitions found; on a tie, the declarations that tie (the first few are listed)'),
  definitions: z.array(DefinitionSchema),
  tied: z.literal(true).optional().describe('Several declarations of the name tie: each is listed, ranked'),
});
export type FindDefinitionResult = z.infer<typeof FindDefinitionOutput>;

export const FindReferencesOutput = withMeta({
  symbol: z.string(),
  total: z.number().int(),
  references: z.array(ReferenceSchema),
  unreachable: z.array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int() })).optional(),
});
export type FindReferencesResult = z.infer<typeof FindReferencesOutput>;

export const OpenAtOutput = withMeta({
  file: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  lines: z.array(z.string()),
  symbol: z.object({ name: z.string(), kind: z.string(), qualified_name: z.string(), start_line: z.number().int(), end_line: z.number().int() }).optional(),
});
export type OpenAtResult = z.infer<typeof OpenAtOutput>;
