/**
 * Whole-workspace analyses (seed 002 and issue 11): find_dead_code.
 */
import { z } from 'zod';
import { decodeCursor, paginate, queryHash } from '../../catalog/paging.js';
import { CATEGORIES, findDeadCode } from '../../graph/dead-code.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { defineOperation, type Operation } from '../types.js';

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

export const analysisOperations: Operation[] = [
  defineOperation({
    name: 'find_dead_code',
    title: 'Find dead code',
    description:
      'Top-level functions, classes and methods of top-level types that the language servers find no reference to outside their own declaration. Each candidate has a `category`: `dead` (nothing calls it), or — reported separately because something outside the code calls them — `entry_point` (`main`, Go `init`), `test`, `framework_hook` (dunders, PHP magic methods, decorated or attributed declarations such as Flask routes) and `exported_api` (exported symbols when the workspace is a library by its manifest). Each says why in `reason`. `counts` per category; pages with max_results / cursor; `max_symbols` bounds how many declarations are checked (one references request each).',
    input: z.object({
      category: z.enum(CATEGORIES).optional().describe('Only this category (default: all)'),
      max_symbols: z.number().int().min(1).max(20000).optional().describe('Declarations checked (default 5000; the rest are counted in `skipped`)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Candidates per page (default 200)'),
      cursor: z.string().max(1000).optional(),
    }),
    output: withMeta({
      success: z.boolean(),
      scanned: z.number().int().describe('Declarations checked'),
      skipped: z.number().int().describe('Declarations not checked (over max_symbols)'),
      counts: z.record(z.string(), z.number().int()).describe('Candidates per category'),
      total: z.number().int(),
      candidates: z.array(
        z.object({
          symbol_id: z.string(),
          name: z.string(),
          qualified_name: z.string(),
          kind: z.string(),
          file: z.string(),
          line: z.number().int(),
          category: z.enum(CATEGORIES),
          reason: z.string(),
        }),
      ),
    }),
    annotations: READ_ONLY,
    repl: { command: 'dead', positional: ['category'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const maxSymbols = input.max_symbols ?? 5000;
        const hash = queryHash(['find_dead_code', input.category ?? '', maxSymbols]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await findDeadCode(call, maxSymbols);
        if (r.skipped) call.meta.limit({ limit: 'max_symbols', value: maxSymbols, detail: `${r.skipped} declaration(s) not checked` });
        const counts = Object.fromEntries(CATEGORIES.map((c) => [c, r.candidates.filter((x) => x.category === c).length]));
        const list = input.category ? r.candidates.filter((x) => x.category === input.category) : r.candidates;
        const candidates = paginate(list, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        return { success: true, scanned: r.scanned, skipped: r.skipped, counts, total: list.length, candidates };
      }),
    markdown(r) {
      const out = [`## ${r.counts.dead ?? 0} dead declaration(s) among ${r.scanned} checked`, ''];
      for (const c of r.candidates) out.push(`- [${c.category}] ${c.kind} **${c.qualified_name}** — ${c.file}:${c.line}: ${c.reason}`);
      if (!r.candidates.length) out.push('(none)');
      return out.join('\n') + '\n';
    },
  }),
];
