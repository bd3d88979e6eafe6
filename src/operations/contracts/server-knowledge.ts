/**
 * Contracts of the server knowledge operations: their result schemas and types.
 */
import { z } from 'zod';

import { ParamDescriptorSchema, ReturnDescriptorSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { treeNodeShape } from '../../schema/rows.js';
import { SEVERITIES } from '../../schema/vocabularies.js';
import type { TypeNode } from '../../service/relations/type-hierarchy.js';
import { DefinitionSchema } from './navigation.js';

export const SeveritySchema = z.enum(SEVERITIES);

export const DiagnosticSchema = z.object({
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
  severity: SeveritySchema,
  code: z.string().optional(),
  source: z.string().optional(),
  message: z.string(),
  tags: z.array(z.enum(['unnecessary', 'deprecated'])).optional(),
  related: z.array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), message: z.string() })).optional(),
});

/** One diagnostic of an edit's delta (`introduced`, `removed`): declared loosely in those schemas, for tools/list's size. */
export type DeltaDiagnostic = z.infer<typeof DiagnosticSchema> & { file: string };

export const FileDiagnosticsSchema = z.object({
  file: z.string(),
  server: z.string(),
  mode: z
    .enum(['pull', 'request', 'push'])
    .describe(
      "pull: textDocument/diagnostic; request: the server's own diagnostics requests for the synced text " +
        "(tsserver's, through typescript-language-server); push: publishDiagnostics for this version, after " +
        'the server settled',
    ),
  version: z.number().int().describe('Document version the diagnostics were computed for'),
  content_hash: z.string().describe('sha256 of the file content the diagnostics were computed for'),
  diagnostics: z.array(DiagnosticSchema),
});

export type { TypeNode };

export const TypeNodeSchema: z.ZodType<TypeNode> = z.lazy(() =>
  z.object({
    ...treeNodeShape,
    relation: z
      .enum(['extends', 'implements', 'embeds'])
      .optional()
      .describe('How the node relates to its parent: a base its header names, or `implements` by the server (Go)'),
    external: z.boolean().optional().describe('Outside the workspace (standard library, dependency): not expanded'),
    supertypes: z.array(TypeNodeSchema).optional(),
    subtypes: z.array(TypeNodeSchema).optional(),
  }),
);

export const EditFileSchema = z.object({
  file: z.string(),
  content_hash: z.string().describe('sha256 of the content the edit was computed for (pass back in expected_hashes to apply)'),
  edits: z.number().int(),
  diff: z.string().describe('Unified diff of the file'),
  new_hash: z.string().optional().describe('sha256 of the written content (apply only)'),
});

export const GetDiagnosticsOutput = withMeta({
  files: z.array(FileDiagnosticsSchema),
  total: z.number().int(),
  counts: z.object({ error: z.number().int(), warning: z.number().int(), information: z.number().int(), hint: z.number().int() }),
  files_checked: z.number().int(),
  failed: z.array(z.object({ file: z.string(), code: z.string(), message: z.string() })).describe('Files that could not be diagnosed, with the error code'),
});
export type GetDiagnosticsResult = z.infer<typeof GetDiagnosticsOutput>;

export const FindImplementationsOutput = withMeta({
  symbol: z.string(),
  source: z.enum(['server', 'syntax+server']),
  implementations: z.array(DefinitionSchema),
});
export type FindImplementationsResult = z.infer<typeof FindImplementationsOutput>;

export const TypeHierarchyOutput = withMeta({
  symbol: z.string(),
  direction: z.enum(['supertypes', 'subtypes', 'both']),
  source: z.enum(['server', 'syntax+server']),
  root: TypeNodeSchema,
});
export type TypeHierarchyResult = z.infer<typeof TypeHierarchyOutput>;

export const GetHoverOutput = withMeta({
  symbol: z.string(),
  found: z.boolean(),
  markdown: z.string(),
  code: z.array(z.string()),
  documentation: z.string(),
  signature: z
    .object({
      text: z.string(),
      parameters: z.array(ParamDescriptorSchema).optional(),
      returns: z.array(ReturnDescriptorSchema).optional(),
    })
    .optional(),
  withheld: z
    .string()
    .optional()
    .describe('Why the hover is not shown: its symbol is declared in a secret file, or outside the workspace and not library code'),
});
export type GetHoverResult = z.infer<typeof GetHoverOutput>;

export const SignatureHelpOutput = withMeta({
  position: z.string(),
  signatures: z.array(
    z.object({
      label: z.string(),
      documentation: z.string().optional(),
      parameters: z.array(z.object({ label: z.string(), documentation: z.string().optional() })),
    }),
  ),
  active_signature: z.number().int().optional(),
  active_parameter: z.number().int().optional(),
  withheld: z
    .string()
    .optional()
    .describe('Why no signature is shown: the called function is declared in a secret file, or outside the workspace and not library code'),
});
export type SignatureHelpResult = z.infer<typeof SignatureHelpOutput>;

export const RenameSymbolOutput = withMeta({
  symbol: z.string(),
  old_name: z.string(),
  new_name: z.string(),
  applied: z.boolean(),
  total_edits: z.number().int(),
  total_files: z.number().int(),
  files: z.array(EditFileSchema),
  backup_dir: z.string().optional().describe('apply only: where the old contents were copied (<cache>/backups/<workspace id>/<journal id>/<file>)'),
  not_renamed: z
    .array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        text: z.string().describe('The line, trimmed'),
        resolves: z
          .enum(['target', 'nothing'])
          .describe("The server's definition there: the renamed symbol, or nothing (a comment, a string, a file outside its project)"),
      }),
    )
    .describe('Occurrences of the old name the edit leaves that are not another symbol'),
});
export type RenameSymbolResult = z.infer<typeof RenameSymbolOutput>;

export const CodeActionsOutput = withMeta({
  file: z.string(),
  applied: z.number().int().optional(),
  backup_dir: z.string().optional().describe('apply only: where the old contents were copied'),
  actions: z.array(
    z.object({
      index: z.number().int(),
      title: z.string(),
      kind: z.string().optional(),
      is_preferred: z.boolean().optional(),
      fixes: z.array(z.string()).optional().describe('Messages of the diagnostics it fixes'),
      command: z.string().optional().describe('A server command with no edit: cannot be previewed or applied'),
      files: z.array(EditFileSchema),
    }),
  ),
});
export type CodeActionsResult = z.infer<typeof CodeActionsOutput>;
