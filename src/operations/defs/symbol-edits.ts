/**
 * Edits by symbol, checked before anything is written: replace_symbol_body, insert_before_symbol,
 * insert_after_symbol, delete_symbol (service/editing/symbol-edit.ts). Each previews by default
 * (diff, content hash, diagnostics delta) and writes through the one edit path with `apply: true`;
 * `undo` restores the last applied edit of the workspace (service/editing/undo.ts).
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import type { SymbolEditKind } from '../../service/editing/edit-plan.js';
import { symbolEdit, type SymbolEditResult } from '../../service/editing/symbol-edit.js';
import { undoLastEdit, type UndoResult } from '../../service/editing/undo.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { WRITES_FILES } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { guidanceLines } from '../render/must-keep-lines.js';
import { defineOperation, type Operation } from '../types.js';

// Kept short: these four tools are in the default MCP profile, whose whole tools/list must stay small
const output = withMeta({
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

const common = {
  ...targetShape,
  // what apply and accept_* do is said once in the tool descriptions (the default profile's size)
  apply: z.boolean().optional(),
  expected_hash: z.string().max(100).optional().describe("The preview's edit_hash"),
  accept_errors: z.boolean().optional(),
  accept_unchecked: z.boolean().optional(),
};
const body = z.string().min(1).max(1_000_000);

function markdown(r: SymbolEditResult): string {
  const state = r.applied ? 'applied' : 'preview';
  const out = [`## ${r.operation} ${r.symbol} in ${r.file}:${r.line} (${state})`, '', '```diff', r.diff.trimEnd(), '```', ''];
  if (r.note) out.push(r.note);
  if (r.diagnostics === 'not_checked') out.push(`Diagnostics not checked: ${r.diagnostics_reason ?? ''}`);
  else out.push(`Diagnostics (${r.server ?? 'server'}, ${r.diagnostics}): ${r.introduced.length} introduced, ${r.removed.length} removed`);
  for (const u of r.unchecked) out.push(`- unchecked ${u.file}: ${u.reason}`);
  if (r.referencing)
    out.push(
      `Referencing files checked: ${r.referencing.files.filter((f) => !r.unchecked.some((u) => u.file === f)).length} of ${r.referencing.total_files}${r.referencing.total_files > r.referencing.cap ? ` (cap ${r.referencing.cap})` : ''}`,
    );
  if (r.referencing?.unseen_folders) out.push(`Not searched (the server does not load them): ${r.referencing.unseen_folders.join(', ')}`);
  for (const d of r.introduced) out.push(`- + ${d.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  for (const d of r.removed) out.push(`- − ${d.file}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  const keep = [
    ...(r.invariants ?? []).map((i) => `- must not break (tier ${i.tier}, ${i.marker}, line ${i.start_line}): ${i.text.split('\n')[0]!.trim()}`),
    ...guidanceLines(r),
  ];
  if (keep.length) out.push('', ...keep);
  if (r.references?.length) out.push('', `References left (force): ${r.references.map((x) => `${x.file}:${x.line}`).join(', ')}`);
  if (r.new_symbols?.length) out.push('', `New symbols: ${r.new_symbols.map((s) => `\`${s.symbol_id}\``).join(', ')}`);
  if (r.backup_dir) out.push('', `backup: ${r.backup_dir}`);
  if (!r.applied && !r.note) out.push('', `apply: the same call with apply: true, expected_hash: ${r.edit_hash}`);
  return out.join('\n') + '\n';
}

function editOp(name: SymbolEditKind, title: string, description: string, shape: z.ZodRawShape, repl: string): Operation {
  return defineOperation({
    name,
    title,
    description,
    input: z.object({ ...common, ...shape }),
    output,
    annotations: WRITES_FILES,
    waitsForServers: true,
    repl: { command: repl, positional: name === 'delete_symbol' ? ['symbol'] : ['symbol', 'body'] },
    profile: 'all',
    callerErrors: SYMBOL_CALLER_ERRORS,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => symbolEdit(call, name, input as Parameters<typeof symbolEdit>[2])),
    // the schema lists the delta's entries as unknown (kept small); the handler's result is a SymbolEditResult
    markdown: (r) => markdown(r as unknown as SymbolEditResult),
  });
}

const CHECKED =
  'Without `apply: true` nothing is written: the answer is the diff, edit_hash, the invariants it must ' +
  "keep and the server's check of the new text unsaved (`introduced`/`removed`/`unchecked`, callers of " +
  'a changed signature included). Unparsable text: INVALID_INPUT. An apply is CONTENT_MODIFIED unless ' +
  '`expected_hash` matches file and edit, refuses new errors and unchecked files unless ' +
  '`accept_errors` / `accept_unchecked`. Layout follows the file; bytes outside the range stay.';
/** The same checks, said short (a tool listed alone must not name another one). */
const AS_REPLACE =
  'Previews (diff, edit_hash, diagnostics) unless `apply`, which refuses new errors and unchecked files unless `accept_errors` / `accept_unchecked`.';

export const symbolEditOperations: Operation[] = [
  editOp(
    'replace_symbol_body',
    'Replace symbol',
    `Replace a symbol's whole declaration (signature, body, decorators; overloads together) with \`body\`; its doc comment stays unless \`include_doc\` or \`body\` opens with one. ${CHECKED}`,
    { body: body.describe('The new declaration'), include_doc: z.boolean().optional().describe('Replace the doc comment too') },
    'replace',
  ),
  editOp(
    'insert_before_symbol',
    'Insert before symbol',
    `Insert declarations (\`body\`) before a symbol and its doc comment, indented and spaced as its neighbours. ${AS_REPLACE}`,
    { body: body.describe('The declarations to insert') },
    'insert-before',
  ),
  editOp(
    'insert_after_symbol',
    'Insert after symbol',
    `Insert declarations (\`body\`) after a symbol, indented and spaced as its neighbours. ${AS_REPLACE}`,
    { body: body.describe('The declarations to insert') },
    'insert-after',
  ),
  editOp(
    'delete_symbol',
    'Delete symbol',
    `Delete a declaration with its doc comment and decorators; refused while references remain (\`details.references\`) unless \`force\`. ${AS_REPLACE}`,
    { force: z.boolean().optional().describe('Delete despite references') },
    'delete',
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
      'Restore the files of the last applied edit (any operation that wrote files) from its backups, only ' +
      'when each still holds what the edit wrote (else CONTENT_MODIFIED naming the files changed since; ' +
      'nothing restored). Again: one edit further back.',
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
    // restores files from the apply journal's backups: nothing of it comes from the catalog
    answersFrom: 'process',
    profile: 'all',
    // after every other call: it reverts the matrix's one applied write (tag_elements with dry_run false)
    handler: (_input, ctx) => ServiceCall.run(ctx, (call) => undoLastEdit(call)),
    markdown: undoMarkdown,
  }),
);
