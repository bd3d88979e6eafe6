// What keeps a wide answer within an agent's budget: over MCP a wide tool called without `max_ms`
// answers by the front-end's default deadline, the cut said in its first line (the default is
// lowered to 1 ms here: the slow case made certain); the import graph closes the documents it
// opened only to resolve their imports (left open, 331 of them slowed every later tsserver answer on
// zod); and analyze_impact does not ask the callers of a last-level item whose name only files
// already in the answer spell, for the same effects (new-files-only.ts).
// Fixtures: callers-crowd-ts (Store.save: saveA, saveB, saveC and test callers; `helper`, called
// once from each of 52 files under extra/, outside tsconfig.json's project), importers-ts (15 files
// import src/lib/shared.ts).
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { liveResponseCaches } from '../../src/cache/response-cache.js';
import { NewFilesOnly } from '../../src/service/navigation/new-files-only.js';
import { type FixtureGateway, openFixture } from '../helpers/gateway.js';
import { connectInProcess } from '../helpers/mcp-client.js';

const firstLine = (text: string) => text.split('\n', 1)[0]!;

function tsSession(fx: FixtureGateway) {
  const s = fx.gateway.context.broker.existing().find((x) => x.root === fx.root && x.serverId.includes('typescript'));
  if (!s) throw new Error('no typescript session');
  return s;
}

describe('wide answers within their budgets', async () => {
  const crowd = await openFixture('callers-crowd-ts');
  const importers = await openFixture('importers-ts');

  it('over MCP, a wide tool without max_ms answers by the default deadline, said first; max_ms overrides it', async () => {
    const { client, close } = await connectInProcess(crowd.gateway, undefined, { defaultMaxMs: 1 });
    try {
      expect(client.getInstructions()).toContain('`max_ms` (default 30000)');
      const cut = await client.callTool({ name: 'find_callers', arguments: { symbol: 'Store.save', depth: 3 } });
      const text = (cut.content as { text: string }[])[0]!.text;
      expect(firstLine(text)).toBe('> **truncated** — max_ms 1: callers at depth 2-3 not asked; raise max_ms for the rest');
      expect((cut.structuredContent as { _meta: { truncated: boolean } })._meta.truncated).toBe(true);
      const whole = await client.callTool({ name: 'find_callers', arguments: { symbol: 'Store.save', depth: 2, max_results: 100, max_ms: 120_000 } });
      const meta = (whole.structuredContent as { _meta: { truncated: boolean; limits_hit?: { limit: string }[] } })._meta;
      expect(meta.truncated).toBe(false);
      expect(meta.limits_hit ?? []).toEqual([]);
      // a tool that is not wide takes no deadline: the default does not make its input invalid
      const refs = await client.callTool({ name: 'find_references', arguments: { symbol: 'Store.save' } });
      expect(refs.isError).toBeFalsy();
    } finally {
      await close();
    }
  }, 180_000);

  it('the import graph closes the documents it opened to resolve their imports', async () => {
    const r = await importers.run('query_relationships', { query_type: 'imports-me', target: 'src/lib/shared.ts', max_depth: 1 });
    expect(r.results).toHaveLength(15);
    const session = tsSession(importers);
    for (let i = 1; i <= 15; i++) {
      const user = path.join(importers.root, 'src/users', `user${String(i).padStart(2, '0')}.ts`);
      expect(session.getDocument(user), user).toBeUndefined();
    }
    // the question's own file may stay open; the 15 importers and main.ts do not
    expect(session.info().openDocuments).toBeLessThanOrEqual(2);
  }, 180_000);

  it('analyze_impact skips the last level items whose callers could add no file: same effects, fewer requests', async () => {
    const ask = async () => {
      for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
      crowd.gateway.runner.clearOperationCache();
      let incoming = 0;
      const session = tsSession(crowd);
      session.onTrace((e) => {
        if (e.direction === 'send' && e.method === 'callHierarchy/incomingCalls') incoming++;
      });
      try {
        const r = await crowd.run('analyze_impact', { element: 'helper', max_depth: 2, max_results: 1000 });
        const effects = (r.impact as { ripple_effects: { file: string; impact: string; depth: number }[] }).ripple_effects;
        return { effects: effects.map((e) => `${e.file} ${e.impact} ${e.depth}`), incoming };
      } finally {
        session.onTrace(undefined);
      }
    };
    // the first question opens 50 of the 52 files in extra/ (outside the project) and says so; the next ones see all 52
    await ask();
    const skipping = await ask();
    const proto = NewFilesOnly.prototype as unknown as { mayAddFiles: () => boolean };
    const skip = proto.mayAddFiles;
    proto.mayAddFiles = () => true;
    const asking = await ask().finally(() => (proto.mayAddFiles = skip));
    expect(asking.effects.filter((e) => e.startsWith('extra/use'))).toHaveLength(52);
    expect(skipping.effects).toEqual(asking.effects);
    // the root's callers, then one request per caller when every item is asked; none of those when skipped
    expect(asking.incoming).toBeGreaterThanOrEqual(53);
    expect(skipping.incoming).toBeLessThanOrEqual(2);
  }, 240_000);
});
