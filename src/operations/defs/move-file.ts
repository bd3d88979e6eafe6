/**
 * move_file: a file renamed and its importers updated by the file's server (willRenameFiles),
 * previewed with the diagnostics delta, applied through the one edit path
 * (service/editing/move-file.ts).
 */
import { z } from 'zod';

import { ServiceCall } from '../../service/call.js';
import { WRITES_FILES } from '../annotations.js';
import { MoveFileOutput, type MoveFileResult } from '../contracts/move-file.js';
import { moveFileMarkdown } from '../render/move-file.js';
import { defineOperation, type Operation } from '../types.js';

const pathField = z.string().min(1).max(4096);

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
    output: MoveFileOutput,
    annotations: WRITES_FILES,
    waitsForServers: true,
    repl: { command: 'move', positional: ['file', 'to'] },
    profile: 'all',
    callerErrors: ['PATH_OUTSIDE_WORKSPACE', 'FILE_NOT_FOUND'],
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/editing/move-file.js')).moveFile(call, input)),
    // the schema lists the delta's entries as unknown; the contract's MoveFileResult names their shape
    markdown: (r) => moveFileMarkdown(r as MoveFileResult),
  }),
];
