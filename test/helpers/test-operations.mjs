/**
 * A small test-only operation table for front-end tests: every transport feature (schemas,
 * coercion, coded errors, progress, cancellation, starting a real language server) without
 * depending on the real operations. Plain JS so that both vitest (in-process, with src/ classes)
 * and a spawned `node test/helpers/test-frontend.mjs` (with dist/ classes) can load it: the
 * lspgate classes are injected, never imported, so `instanceof LspgateError` holds on each side.
 */
import path from 'node:path';

import { z } from 'zod';

/** What every test operation says of itself (each answers from its input or this process). */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

/** Per-process counters the `stats` operation reports (to prove cancellation reached the handler). */
export const testState = { cancelled: 0, waiting: 0 };

/**
 * @param {{ LspgateError: any, withMeta: (shape: any) => any }} deps
 */
export function testOperations({ LspgateError, withMeta }) {
  const echo = {
    name: 'echo',
    title: 'Echo',
    description: 'Echoes its input (test operation).',
    annotations: READ_ONLY,
    input: z.object({
      text: z.string().describe('What to echo'),
      times: z.number().int().min(1).max(5).optional().describe('How many times'),
      tags: z.array(z.string()).optional(),
      loud: z.boolean().optional(),
    }),
    output: withMeta({ text: z.string(), tags: z.array(z.string()), loud: z.boolean() }),
    repl: { command: 'echo', positional: ['text'] },
    async handler(input) {
      const text = Array(input.times ?? 1)
        .fill(input.loud ? input.text.toUpperCase() : input.text)
        .join(' ');
      return { text, tags: input.tags ?? [], loud: input.loud ?? false };
    },
    markdown: (r) => `echo: ${r.text}\n`,
  };

  const fail = {
    name: 'fail',
    title: 'Fail',
    description: 'Always fails with the given code (test operation).',
    annotations: READ_ONLY,
    input: z.object({ code: z.string().optional() }),
    output: withMeta({}),
    async handler(input) {
      throw new LspgateError(input.code ?? 'SYMBOL_NOT_FOUND', 'failing on purpose', {
        candidates: [{ symbol_id: 'src/a.ts::A#class' }],
      });
    },
  };

  const wait = {
    name: 'wait',
    title: 'Wait',
    description: 'Reports progress, then waits until cancelled (test operation).',
    annotations: READ_ONLY,
    input: z.object({ steps: z.number().int().optional() }),
    output: withMeta({ done: z.boolean() }),
    async handler(input, ctx) {
      const steps = input.steps ?? 2;
      for (let i = 1; i <= steps; i++) ctx.progress?.({ progress: i, total: steps, message: `step ${i}` });
      testState.waiting++;
      await new Promise((resolve) => {
        if (ctx.signal?.aborted) return resolve(undefined);
        ctx.signal?.addEventListener('abort', () => resolve(undefined), { once: true });
      });
      testState.waiting--;
      testState.cancelled++;
      throw new LspgateError('CANCELLED', 'cancelled by the client');
    },
  };

  const stats = {
    name: 'stats',
    title: 'Stats',
    description: 'Counters of this process (test operation).',
    annotations: READ_ONLY,
    input: z.object({}),
    output: withMeta({ cancelled: z.number(), waiting: z.number() }),
    async handler() {
      return { ...testState };
    },
  };

  const startServer = {
    name: 'start_server',
    title: 'Start server',
    description: 'Starts (or reuses) the language server of a file and waits until it is ready (test operation).',
    annotations: READ_ONLY,
    input: z.object({ file: z.string() }),
    output: withMeta({ server: z.string(), pid: z.number() }),
    async handler(input, ctx) {
      const abs = path.resolve(ctx.workspace.root, input.file);
      const session = await ctx.env.broker.sessionFor(abs, ctx.workspace.root);
      await session.waitReady();
      return { server: session.serverId, pid: session.pid ?? -1 };
    },
  };

  return [echo, fail, wait, stats, startServer];
}
