/**
 * tag_elements (input below, output in ../contracts/tags.ts: the public contract). Writes files when
 * asked (`dry_run: false`), so its MCP annotation is destructive, like rename_symbol's.
 */
import { z } from 'zod';

import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { ServiceCall } from '../../service/call.js';
import { TAG_CODES } from '../../service/editing/tag-plan.js';
import { DEFAULT_LANG, tagElements, type TagResult } from '../../service/editing/tags.js';
import { WRITES_FILES } from '../annotations.js';
import { ELEMENT_TYPES, TagElementsOutput } from '../contracts/tags.js';
import { tagElementsMarkdown } from '../render/tags.js';
import { defineOperation, type Operation } from '../types.js';

/** tag_elements' summary text, in the form clients parse: "Tagged 45 elements in 12 files:\n - 18 functions (@Fn) ...". */
function summary(r: TagResult): string {
  const done = r.elements.filter((e) => e.action !== 'skip');
  const head = `${r.dry_run ? 'Would tag' : 'Tagged'} ${done.length} element(s) in ${r.files.length} file(s)${done.length ? ':' : ''}`;
  const lines = ELEMENT_TYPES.map((t) => [t, done.filter((e) => e.element_type === t).length] as const)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => ` - ${n} ${t === 'class' ? 'classe' : t}s (@${TAG_CODES[t]})`);
  const skipped = r.elements.length - done.length;
  return [head, ...lines, ...(skipped ? [`${skipped} element(s) already tagged (force or update_lineno to rewrite)`] : [])].join('\n');
}

export const tagOperations: Operation[] = [
  defineOperation({
    name: 'tag_elements',
    title: 'Tag code elements',
    description:
      'Tag comments above each function, method, class, interface and type of a file or directory: `// ' +
      '@Fn/<file>#<name>:<line>` (`#` in Python; in Go the directive `//lspgate:tag @Fn/…`, hidden from go ' +
      'doc; Fn, Mt, Cl, Cp, Hk, If, Ty). `dry_run` defaults to TRUE: the elements and diffs, nothing ' +
      'written. `dry_run: false` writes atomically (hashes checked, backups in the cache). Tagged elements ' +
      'are skipped unless `force` or `update_lineno`; `include_private`, `lang` and `exclude` choose. ' +
      'Never outside the workspace nor into a secret file.',
    input: z.object({
      path: z.string().min(1).max(4096).describe('File or directory to tag, relative to the workspace root (`.` for all)'),
      dry_run: z.boolean().optional().describe('Report only (default true); false writes the tags'),
      force: z.boolean().optional().describe('Rewrite tags that are already there'),
      verbose: z.boolean().optional().describe('Accepted; every element is always listed'),
      update_lineno: z.boolean().optional().describe('Rewrite existing tags whose line number is stale'),
      include_private: z.boolean().optional().describe('Also tag private declarations'),
      lang: z.string().max(200).optional().describe(`Comma-separated file extensions (default ${DEFAULT_LANG})`),
      exclude: z.string().max(2000).optional().describe('Comma-separated glob patterns to leave out'),
      max_results: z.number().int().min(1).max(5000).optional().describe('Elements listed per page (default 500; all are tagged)'),
      cursor: z.string().max(1000).optional(),
    }),
    output: TagElementsOutput,
    annotations: WRITES_FILES,
    repl: { command: 'tag', positional: ['path'] },
    callerErrors: ['PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE', 'FILE_NOT_FOUND'],
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const hash = queryHash([
          'tag_elements',
          input.path,
          input.dry_run ?? true,
          input.force ?? false,
          input.include_private ?? false,
          input.lang ?? '',
          input.exclude ?? '',
        ]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await tagElements(call, input);
        const done = r.elements.filter((e) => e.action !== 'skip');
        const counts = Object.fromEntries(ELEMENT_TYPES.map((t) => [t, done.filter((e) => e.element_type === t).length]));
        const elements = paginate(r.elements, { offset, maxResults: input.max_results ?? 500, hash, meta: call.meta });
        return {
          success: true,
          dry_run: r.dry_run,
          path: r.path,
          text: summary(r),
          counts,
          total: r.elements.length,
          elements,
          files: r.files,
          ...(r.backup_dir ? { backup_dir: r.backup_dir } : {}),
        };
      }),
    markdown: tagElementsMarkdown,
  }),
];
