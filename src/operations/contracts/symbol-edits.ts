/**
 * Contracts of the symbol edit operations: their result schemas and types.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import type { DeltaDiagnostic } from './server-knowledge.js';

// Kept short: these four tools are in the default MCP profile, whose whole tools/list must stay small
export const SymbolEditOutput = withMeta({
  operation: z.string(),
  symbol: z.string(),
  symbol_id: z.string(),
  file: z.string(),
  applied: z.boolean(),
  content_hash: z.string(),
  edit_hash: z.string(),
  note: z.string().optional(),
  new_hash: z.string().optional(),
  diff: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  parse: z.enum(['checked', 'no_grammar']),
  diagnostics: z.enum(['checked', 'partial', 'not_checked']),
  diagnostics_reason: z.string().optional(),
  unchecked: z.array(z.unknown()).describe('{file, reason}'),
  server: z.string().optional(),
  // each entry: line, column, end_line, end_column, severity, code?, source?, message, tags?, related? (the schema
  // names them once here, not per entry, to keep the default profile's tools/list small)
  introduced: z.array(z.unknown()).describe('Diagnostics the new text adds: {file, line, column, severity, code, message, ...}'),
  removed: z.array(z.unknown()).describe('Diagnostics it removes, the same shape'),
  // {files, total_files, cap}: named in the description, not as a schema, for the default profile's size
  referencing: z.unknown().optional().describe('{files, total_files, cap, unseen_folders?}: callers checked too'),
  backup_dir: z.string().optional(),
  new_symbols: z.array(z.unknown()).optional().describe('{symbol_id, qualified_name, kind, line}'),
  references: z.array(z.unknown()).optional().describe('A forced delete: {file, line, column} left'),
  invariants: z.array(z.unknown()).optional().describe('{tier, marker, text, start_line, end_line}: what must not break'),
  // {category, also_review, required_tests, watch_out} and [{flow_id, step_id, trigger, invariants, unresolved}]: unknown, for the default profile's size
  guidance: z.unknown().optional(),
  flows: z.unknown().optional(),
});

/** The fields SymbolEditOutput declares loosely (named in its descriptions, for tools/list's size), as a renderer reads them. */
type LooseFields = 'unchecked' | 'introduced' | 'removed' | 'referencing' | 'new_symbols' | 'references' | 'invariants';
export type SymbolEditResult = Omit<z.infer<typeof SymbolEditOutput>, LooseFields> & {
  unchecked: { file: string; reason: string }[];
  introduced: DeltaDiagnostic[];
  removed: DeltaDiagnostic[];
  referencing?: { files: string[]; total_files: number; cap: number; unseen_folders?: string[] };
  new_symbols?: { symbol_id: string; qualified_name: string; kind: string; line: number }[];
  references?: { file: string; line: number; column: number }[];
  invariants?: { tier: number; marker: string; text: string; start_line: number; end_line: number }[];
};

export const UndoOutput = withMeta({
  undone: z.string().describe('Journal id of the edit undone'),
  operation: z.string(),
  applied_at: z.string(),
  files: z.array(z.object({ file: z.string(), diff: z.string() })),
  backup_dir: z.string().describe('Where the undone state was copied'),
});
export type UndoResult = z.infer<typeof UndoOutput>;
