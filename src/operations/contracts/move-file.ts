/**
 * The contract of move_file: its result schema and type.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import type { DeltaDiagnostic } from './server-knowledge.js';

export const MoveFileOutput = withMeta({
  file: z.string(),
  to: z.string(),
  applied: z.boolean(),
  server: z.string(),
  files: z.array(
    z.object({
      file: z.string(),
      change: z.enum(['edited', 'removed', 'created']),
      content_hash: z.string().describe("sha256 of the file now ('absent' for the new path)"),
      edits: z.number().int(),
      diff: z.string(),
      new_hash: z.string().optional(),
    }),
  ),
  importers: z.array(z.string()).describe('The files whose imports the server updates'),
  diagnostics: z.enum(['checked', 'partial', 'not_checked']).describe('checked: every file of the delta was'),
  diagnostics_reason: z.string().optional(),
  unchecked: z.array(z.object({ file: z.string(), reason: z.string() })).describe('Files of the delta not checked, and why'),
  introduced: z.array(z.unknown()).describe('Diagnostics the move adds: {file, line, column, severity, code, message, ...}'),
  removed: z.array(z.unknown()).describe('Diagnostics it removes, the same shape'),
  pending_imports: z.array(z.unknown()).describe('Errors on imports of the new path, unresolvable before it exists on disk: not counted'),
  backup_dir: z.string().optional(),
});

/** The diagnostics delta MoveFileOutput declares loosely (for tools/list's size), as a renderer reads it. */
export type MoveFileResult = Omit<z.infer<typeof MoveFileOutput>, 'introduced' | 'removed'> & {
  introduced: DeltaDiagnostic[];
  removed: DeltaDiagnostic[];
};
