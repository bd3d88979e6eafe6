/**
 * Edits by symbol, checked before anything is written: replace_symbol_body, insert_before_symbol,
 * insert_after_symbol, delete_symbol (service/editing/symbol-edit.ts). Each previews by default
 * (diff, content hash, diagnostics delta) and writes through the one edit path with `apply: true`;
 * `undo` restores the last applied edit of the workspace (service/editing/undo.ts).
 */
import { z } from 'zod';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { symbolEdit, type SymbolEditKind, type SymbolEditResult } from '../../service/editing/symbol-edit.js';
import { undoLastEdit, type UndoResult } from '../../service/editing/undo.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { WRITES_FILES } from '../annotations.js';
import { symbolErrorCases } from '../client-cases.js';
import { defineOperation, type Operation } from '../types.js';

const DeltaEntrySchema = z.object({
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
  severity: z.enum(['error', 'warning', 'information', 'hint']),
  code: z.string().optional(),
  source: z.string().optional(),
  message: z.string(),
  tags: z.array(z.enum(['unnecessary', 'deprecated'])).optional(),
  related: z.array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), message: z.string() })).optional(),
});

const output = withMeta({
  operation: z.enum(['replace_symbol_body', 'insert_before_symbol', 'insert_after_symbol', 'delete_symbol']),
  symbol: z.string().describe('Qualified name of the symbol edited (or beside which text is inserted)'),
  symbol_id: z.string(),
  file: z.string(),
  applied: z.boolean(),
  content_hash: z.string().describe('sha256 of the file the edit was computed for: pass it back as expected_hash to apply'),
  new_hash: z.string().optional().describe('sha256 of the written file (apply only)'),
  diff: z.string().describe('Unified diff of the file'),
  line: z.number().int().describe('First line of the file on disk the edit replaces or inserts at'),
  end_line: z.number().int(),
  parse: z.enum(['checked', 'no_grammar']).describe('checked: the new text parsed as whole declarations in place (else INVALID_INPUT with the position)'),
  diagnostics: z.enum(['checked', 'not_checked']).describe("checked: the file's server diagnosed the new text as an unsaved version, nothing written"),
  diagnostics_reason: z.string().optional().describe('Why not checked (no server for the language, ...)'),
  server: z.string().optional(),
  introduced: z.array(DeltaEntrySchema).describe('Errors and warnings the new text has and the file on disk has not; an apply with new errors needs accept_errors'),
  removed: z.array(DeltaEntrySchema).describe('Errors and warnings of the file on disk the new text no longer has'),
  backup_dir: z.string().optional().describe('apply only: where the old content was copied (`lspgate undo` restores it)'),
  new_symbols: z
    .array(z.object({ symbol_id: z.string(), qualified_name: z.string(), kind: z.string(), line: z.number().int() }))
    .optional()
    .describe('apply only: the declarations of the new text, by their ids in the updated catalog'),
  references: z.array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int() })).optional().describe('delete_symbol with force: the references left'),
});

const common = {
  ...targetShape,
  apply: z.boolean().optional().describe('Write the edit (default false: preview only)'),
  expected_hash: z.string().max(100).optional().describe('content_hash from the preview: apply only if the file is still that, else CONTENT_MODIFIED'),
  accept_errors: z.boolean().optional().describe('Apply even though the diagnostics delta lists new errors (default false: refused, details.introduced)'),
};
const body = z.string().min(1).max(1_000_000);

function markdown(r: SymbolEditResult): string {
  const state = r.applied ? 'applied' : 'preview';
  const out = [`## ${r.operation} ${r.symbol} in ${r.file}:${r.line} (${state})`, '', '```diff', r.diff.trimEnd(), '```', ''];
  if (r.diagnostics === 'not_checked') out.push(`Diagnostics not checked: ${r.diagnostics_reason ?? ''}`);
  else out.push(`Diagnostics (${r.server ?? 'server'}): ${r.introduced.length} introduced, ${r.removed.length} removed`);
  for (const d of r.introduced) out.push(`- + ${r.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  for (const d of r.removed) out.push(`- − ${r.file}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  if (r.references?.length) out.push('', `References left (force): ${r.references.map((x) => `${x.file}:${x.line}`).join(', ')}`);
  if (r.new_symbols?.length) out.push('', `New symbols: ${r.new_symbols.map((s) => `\`${s.symbol_id}\``).join(', ')}`);
  if (r.backup_dir) out.push('', `backup: ${r.backup_dir}`);
  if (!r.applied) out.push('', `apply: the same call with apply: true, expected_hash: ${r.content_hash}`);
  return out.join('\n') + '\n';
}

function editOp(name: SymbolEditKind, title: string, description: string, shape: z.ZodRawShape, repl: string, ok: Record<string, unknown>): Operation {
  return defineOperation({
    name,
    title,
    description,
    input: z.object({ ...common, ...shape }),
    output,
    annotations: WRITES_FILES,
    repl: { command: repl, positional: name === 'delete_symbol' ? ['symbol'] : ['symbol', 'body'] },
    profile: 'core',
    clientCases: { ok: [ok], errors: symbolErrorCases(name === 'delete_symbol' ? {} : { body: 'x' }) },
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => symbolEdit(call, name, input as Parameters<typeof symbolEdit>[2])),
    markdown,
  });
}

const CHECKED =
  'Without `apply` nothing is written: the unified diff, the content_hash it was computed for, and the diagnostics delta (the file\'s server diagnoses the new text as an unsaved version: `introduced` and `removed` errors/warnings; `diagnostics: not_checked` with the reason where no server serves the language). New text that does not parse as whole declarations in place is INVALID_INPUT with the position. `apply: true` writes through the journal (backups; `lspgate undo`), refuses CONTENT_MODIFIED when the file changed (`expected_hash`) and refuses new errors unless `accept_errors`; the answer gives `new_symbols` by id. Indentation, line endings and the final newline follow the file; bytes outside the edited range are unchanged.';

export const symbolEditOperations: Operation[] = [
  editOp(
    'replace_symbol_body',
    'Replace symbol',
    `Replace a symbol's whole declaration (signature, body, decorators; TypeScript overloads together) with \`body\`. The doc comment above it is kept unless \`include_doc: true\`. ${CHECKED}`,
    { body: body.describe('The new declaration'), include_doc: z.boolean().optional().describe('Replace the doc comment above the declaration too (default false: kept)') },
    'replace',
    { symbol: 'capitalize', body: 'export function capitalize(word: string): string {\n  return word.toUpperCase();\n}' },
  ),
  editOp(
    'insert_before_symbol',
    'Insert before symbol',
    `Insert new declarations (\`body\`) before a symbol (and its doc comment), indented as it is and separated as its neighbours are: a method before a method in its class, an import-level declaration before a file's first symbol. ${CHECKED}`,
    { body: body.describe('The declarations to insert') },
    'insert-before',
    { symbol: 'capitalize', body: 'export function lower(word: string): string {\n  return word.toLowerCase();\n}' },
  ),
  editOp(
    'insert_after_symbol',
    'Insert after symbol',
    `Insert new declarations (\`body\`) after a symbol, indented as it is and separated as its neighbours are. ${CHECKED}`,
    { body: body.describe('The declarations to insert') },
    'insert-after',
    { symbol: 'capitalize', body: 'export function lower(word: string): string {\n  return word.toLowerCase();\n}' },
  ),
  editOp(
    'delete_symbol',
    'Delete symbol',
    `Delete a declaration with its doc comment and decorators. Refused (INVALID_INPUT, \`details.references\`) while references to it remain, unless \`force: true\`. ${CHECKED}`,
    { force: z.boolean().optional().describe('Delete although references remain (default false)') },
    'delete',
    { symbol: 'padLeft', force: true },
  ),
];

function undoMarkdown(r: UndoResult): string {
  const out = [`## Undone: ${r.operation} of ${r.applied_at} (${r.files.length} file(s) restored)`, ''];
  for (const f of r.files) out.push('```diff', f.diff.trimEnd(), '```');
  out.push('', `backup of the undone state: ${r.backup_dir}`);
  return out.join('\n') + '\n';
}

symbolEditOperations.push(
  defineOperation({
    name: 'undo',
    title: 'Undo the last edit',
    description:
      'Restore the files of the last applied edit of the workspace (a symbol edit, rename_symbol, code_actions, tag_elements) from its backups — only when every file still has exactly what the edit wrote; otherwise CONTENT_MODIFIED naming the files changed since, and nothing is restored. Another undo goes one edit further back. The CLI: `lspgate undo [--root DIR]`.',
    input: z.object({}),
    output: withMeta({
      undone: z.string().describe('Journal id of the edit undone'),
      operation: z.string(),
      applied_at: z.string(),
      files: z.array(z.object({ file: z.string(), diff: z.string() })),
      backup_dir: z.string().describe('Where the undone state was copied'),
    }),
    annotations: WRITES_FILES,
    repl: { command: 'undo', positional: [] },
    profile: 'core',
    // the matrix workspace may hold applies of other cases: undo's answer there depends on their order
    clientCases: { ok: [], errors: [] },
    handler: (_input, ctx) => ServiceCall.run(ctx, (call) => undoLastEdit(call)),
    markdown: undoMarkdown,
  }),
);
