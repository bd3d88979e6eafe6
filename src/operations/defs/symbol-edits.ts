/**
 * Edits by symbol, checked before anything is written: replace_symbol_body, insert_before_symbol,
 * insert_after_symbol, delete_symbol (service/editing/symbol-edit.ts). Each previews by default
 * (diff, content hash, diagnostics delta) and writes through the one edit path with `apply: true`;
 * `undo` restores the last applied edit of the workspace (service/editing/undo.ts).
 */
import { z } from 'zod';

import { ServiceCall } from '../../service/call.js';
import type { SymbolEditKind } from '../../service/editing/edit-plan.js';
import type { symbolEdit } from '../../service/editing/symbol-edit.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { WRITES_FILES } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { SymbolEditOutput, type SymbolEditResult, UndoOutput } from '../contracts/symbol-edits.js';
import { symbolEditMarkdown, undoMarkdown } from '../render/symbol-edits.js';
import { defineOperation, type Operation } from '../types.js';

const common = {
  ...targetShape,
  // what apply and accept_* do is said once in the tool descriptions (the default profile's size)
  apply: z.boolean().optional(),
  expected_hash: z.string().max(100).optional().describe("The preview's edit_hash"),
  accept_errors: z.boolean().optional(),
  accept_unchecked: z.boolean().optional(),
};
const body = z.string().min(1).max(1_000_000);

function editOp(name: SymbolEditKind, title: string, description: string, shape: z.ZodRawShape, repl: string): Operation {
  return defineOperation({
    name,
    title,
    description,
    input: z.object({ ...common, ...shape }),
    output: SymbolEditOutput,
    annotations: WRITES_FILES,
    waitsForServers: true,
    repl: { command: repl, positional: name === 'delete_symbol' ? ['symbol'] : ['symbol', 'body'] },
    profile: 'all',
    callerErrors: SYMBOL_CALLER_ERRORS,
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) =>
        (await import('../../service/editing/symbol-edit.js')).symbolEdit(call, name, input as Parameters<typeof symbolEdit>[2]),
      ),
    // the schema lists the delta's entries as unknown (kept small); the contract's SymbolEditResult names their shape
    markdown: (r) => symbolEditMarkdown(r as SymbolEditResult),
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

symbolEditOperations.push(
  defineOperation({
    name: 'undo',
    title: 'Undo the last edit',
    description:
      'Restore the files of the last applied edit (any operation that wrote files) from its backups, only ' +
      'when each still holds what the edit wrote (else CONTENT_MODIFIED naming the files changed since; ' +
      'nothing restored). Again: one edit further back.',
    input: z.object({}),
    output: UndoOutput,
    annotations: WRITES_FILES,
    repl: { command: 'undo', positional: [] },
    // restores files from the apply journal's backups: nothing of it comes from the catalog
    answersFrom: 'process',
    profile: 'all',
    // after every other call: it reverts the matrix's one applied write (tag_elements with dry_run false)
    handler: (_input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/editing/undo.js')).undoLastEdit(call)),
    markdown: undoMarkdown,
  }),
);
