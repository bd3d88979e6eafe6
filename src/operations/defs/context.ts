/**
 * get_context: one symbol's source, callers, callees, signature types, tests and
 * references in one answer within a token budget.
 */
import { z } from 'zod';

import { tokensOf } from '../../core/paging.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../schema/vocabularies.js';
import { ServiceCall } from '../../service/call.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { GetContextOutput, PartSchema } from '../contracts/context.js';
import type { MetaCollector } from '../meta-collector.js';
import { contextMarkdown } from '../render/context.js';
import { defineOperation, type Operation } from '../types.js';

/**
 * What `_meta` will cost once the runner adds it: the collector's lists as they are, and the widest
 * values of the fields the runner fills in afterwards (timing, savings). 40 tokens cover one more
 * warning (a server that began indexing while answering makes the service ask again).
 */
function metaTokens(meta: MetaCollector, workspace: string): number {
  const worst = {
    timing_ms: 9999999.99,
    workspace,
    truncated: false,
    tokens_saved: 999999999,
    total_tokens_saved: 999999999999,
    index_state: 'indexing',
    servers: [...meta.servers.values()],
    limits_hit: meta.limitsHit,
    warnings: meta.warnings,
    alternatives: meta.alternatives,
  };
  return tokensOf(worst) + 40;
}

export const contextOperations: Operation[] = [
  defineOperation({
    name: 'get_context',
    title: 'Context of a symbol',
    description:
      'What to read before changing a function, method or type, in one answer within `max_tokens`: what ' +
      'must not break (invariants, guidance, flows); its source; callers and callees one hop away, nearest ' +
      'first; the workspace types its signature names; its tests and references. Filled in that order ' +
      '(`include` picks parts); what does not fit is counted in `omitted` with the call that fetches it.',
    input: z.object({
      ...targetShape,
      max_tokens: z.number().int().min(600).max(100000).optional().describe(`Answer budget (bytes/4; default ${DEFAULT_CONTEXT_TOKENS})`),
      include: z.array(PartSchema).min(1).max(6).optional().describe('Default all'),
    }),
    output: GetContextOutput,
    annotations: READ_ONLY,
    repl: { command: 'ctx', positional: ['symbol'] },
    profile: 'core',
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) =>
      ServiceCall.run(
        ctx,
        async (call) =>
          (await (await import('../../service/context/context-bundle.js')).contextBundle(call, input, () => metaTokens(ctx.meta, ctx.workspace.root)))
            .body as never,
      ),
    markdown: (r) => contextMarkdown(r),
  }),
];
