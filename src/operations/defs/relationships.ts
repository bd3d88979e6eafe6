/**
 * Relationship operations (seed 002): query_relationships.
 */
import { z } from 'zod';
import { decodeCursor, paginate, queryHash } from '../../catalog/paging.js';
import { QUERY_TYPES, queryRelationships } from '../../graph/relationships.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { defineOperation, type Operation } from '../types.js';

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

const Cursor = z.string().max(1000);
const MaxDepth = z.number().int().min(1).max(10);

export const RelationshipSchema = z.object({
  from: z.string().describe('Source element: qualified name (calls) or workspace file (imports, dependencies)'),
  to: z.string().describe('Target element: qualified name, workspace file, or the specifier as written when it did not resolve to a workspace file'),
  type: z.enum(['import', 'call', 'dependency']),
  file: z.string().describe('File where the relationship is written (the caller, the importing file)'),
  line: z.number().int().optional().describe('1-based line of the call site or import'),
  depth: z.number().int().describe('1 = direct; n = found n steps from the target'),
  from_symbol_id: z.string().optional(),
  to_symbol_id: z.string().optional(),
  status: z.enum(['workspace', 'external', 'unresolved']).optional().describe('Imports: resolved to a workspace file, outside the workspace, or not resolved'),
  specifier: z.string().optional().describe('Imports: the module specifier as written'),
  via: z.array(z.enum(['import', 'call'])).optional().describe('Dependencies: import and/or call edges'),
});

export const relationshipOperations: Operation[] = [
  defineOperation({
    name: 'query_relationships',
    title: 'Query relationships',
    description:
      'Relationships of a function, class or file, from the language servers (never name matching). `query_type`: `calls` (what the target calls), `calls-me` (who calls it), `imports` (what a file imports; a symbol stands for its file), `imports-me` (files importing it), `depends-on` / `depends-on-me` (file level: imports and calls together). Followed to `max_depth` (1..10, default 3); each result says its `depth`. `target`: a name, qualified name, `Class#method`, a symbol_id, or a workspace file. Imports say whether each specifier resolved to a workspace file (`status: workspace`), outside it (`external`) or nowhere (`unresolved`). Pages with max_results and `_meta.next_cursor`.',
    input: z.object({
      query_type: z.enum(QUERY_TYPES),
      target: z.string().min(1).max(4096).describe('Name, qualified name, `Class#method`, symbol_id, or workspace-relative file'),
      max_depth: MaxDepth.optional().describe('Levels to follow (1..10, default 3)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Relationships per page (default 200)'),
      cursor: Cursor.optional().describe('`_meta.next_cursor` of the previous page of the same query'),
    }),
    output: withMeta({ success: z.boolean(), query_type: z.enum(QUERY_TYPES), target: z.string(), total: z.number().int(), results: z.array(RelationshipSchema) }),
    annotations: READ_ONLY,
    repl: { command: 'rel', positional: ['query_type', 'target'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const max_depth = input.max_depth ?? 3;
        const hash = queryHash(['query_relationships', input.query_type, input.target, max_depth]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await queryRelationships(call, { query_type: input.query_type, target: input.target, max_depth });
        const results = paginate(r.results, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        return { success: true, query_type: input.query_type, target: r.target, total: r.results.length, results };
      }),
    markdown(r) {
      const out = [`## ${r.query_type} of ${r.target}: ${r.total} relationship(s)`, ''];
      for (const x of r.results) {
        const where = `${x.file}${x.line ? `:${x.line}` : ''}`;
        const extra = x.status && x.status !== 'workspace' ? ` (${x.status})` : x.via ? ` (${x.via.join('+')})` : '';
        out.push(`${'  '.repeat(x.depth - 1)}- ${x.from} → ${x.to}${extra} — ${where}`);
      }
      if (!r.results.length) out.push('(none)');
      return out.join('\n') + '\n';
    },
  }),
];
