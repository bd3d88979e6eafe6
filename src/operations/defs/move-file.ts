/**
 * move_file: a file renamed and its importers updated by the file's server (willRenameFiles),
 * previewed with the diagnostics delta, applied through the one edit path
 * (service/editing/move-file.ts).
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { moveFile, type MoveFileResult } from '../../service/editing/move-file.js';
import { WRITES_FILES } from '../annotations.js';
import { defineOperation, type Operation } from '../types.js';

const pathField = z.string().min(1).max(4096);

function markdown(r: MoveFileResult): string {
  const state = r.applied ? 'applied' : 'preview';
  const out = [`## move_file ${r.file} → ${r.to} (${state}, ${r.importers.length} importer(s) updated by ${r.server})`, ''];
  for (const f of r.files) if (f.diff) out.push('```diff', f.diff.trimEnd(), '```');
  if (r.diagnostics === 'not_checked') out.push('', `Diagnostics not checked: ${r.diagnostics_reason ?? ''}`);
  else out.push('', `Diagnostics (${r.diagnostics}): ${r.introduced.length} introduced, ${r.removed.length} removed`);
  for (const u of r.unchecked) out.push(`- unchecked ${u.file}: ${u.reason}`);
  for (const d of r.introduced) out.push(`- + ${d.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  if (r.pending_imports.length) out.push(`(${r.pending_imports.length} import(s) of the new path resolve only once it exists: not counted)`);
  for (const d of r.removed) out.push(`- − ${d.file}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  if (r.backup_dir) out.push('', `backup: ${r.backup_dir}`);
  if (!r.applied) out.push('', 'apply: the same call with apply: true and expected_hashes {file: content_hash} of the files above');
  return out.join('\n') + '\n';
}

export const moveFileOperations: Operation[] = [
  defineOperation({
    name: 'move_file',
    title: 'Move file',
    description:
      'Rename a file and update every import of it, as its server computes them ' +
      '(`workspace/willRenameFiles`: TypeScript/JavaScript; NOT_SUPPORTED elsewhere). `to`: root-relative, ' +
      "not existing, no secret's name; folders are created. Without `apply: true` nothing is written: each " +
      "file's diff, content hashes, and the diagnostics delta over the moved file and its importers. An " +
      'apply is journaled (it can be undone), CONTENT_MODIFIED if a file changed since the preview, ' +
      'refuses new errors unless `accept_errors`, and refuses while any file of the delta is unchecked ' +
      '(`unchecked`: no server answer within the bound, no server) unless `accept_unchecked` ' +
      '(INVALID_INPUT with details.unchecked).',
    input: z.object({
      file: pathField.describe('The file to move (root-relative)'),
      to: pathField.describe('Its new path (root-relative)'),
      apply: z.boolean().optional().describe('Write it (default: preview)'),
      expected_hashes: z.record(z.string(), z.string()).optional().describe('{file: content_hash} from the preview'),
      accept_errors: z.boolean().optional().describe('Apply despite introduced errors'),
      accept_unchecked: z.boolean().optional().describe('Apply although files of the delta are unchecked'),
    }),
    output: withMeta({
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
    }),
    annotations: WRITES_FILES,
    waitsForServers: true,
    repl: { command: 'move', positional: ['file', 'to'] },
    profile: 'all',
    callerErrors: ['PATH_OUTSIDE_WORKSPACE', 'FILE_NOT_FOUND'],
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => moveFile(call, input)),
    // the schema lists the delta's entries as unknown; the handler's result is a MoveFileResult
    markdown: (r) => markdown(r as unknown as MoveFileResult),
  }),
];
