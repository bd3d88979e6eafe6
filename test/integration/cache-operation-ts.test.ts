/**
 * The operation-level result cache (src/cache/operation-cache.ts, wired in the runner) through a
 * real Gateway and typescript-language-server on a copy of fixtures/ts-app:
 *   - a repeated call is answered from it (`_meta.cached`) without one request to the server;
 *   - an edit on disk to a file the answer was read from invalidates it at once (the call is made
 *     right after the write, before any watcher event can be delivered);
 *   - an edit to another file that adds a reference invalidates a cross-file answer;
 *   - a restarted server (new generation) invalidates it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { processGroup } from '../../fixtures/fault-server/proc-utils.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { TraceEvent } from '../../src/lsp/types.js';
import type { RunResult } from '../../src/operations/runner.js';
import { createLogger } from '../../src/util/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function body(r: RunResult): Record<string, unknown> {
  const { _meta: _m, ...rest } = r.result;
  return rest;
}

/** 1-based line and column of the first occurrence of `needle` after `after` (if given). */
function positionOf(text: string, needle: string, after = ''): { line: number; column: number } {
  const from = after ? text.indexOf(after) : 0;
  const idx = text.indexOf(needle, from);
  if (idx < 0 || from < 0) throw new Error(`${needle} not found`);
  const lines = text.slice(0, idx).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

describe('operation cache over typescript-language-server', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway;
  const sent: string[] = [];

  const run = (name: string, input: Record<string, unknown>) => gateway.run(name, { ...input, output_format: 'json' });
  const session = () => {
    const s = gateway.context.broker.existing().find((x) => x.serverId === 'typescript-language-server');
    if (!s) throw new Error('no typescript-language-server session');
    return s;
  };
  const trace = () =>
    session().onTrace((e: TraceEvent) => {
      if (e.direction === 'send' && e.kind === 'request' && e.method) sent.push(e.method);
    });

  /** Asks until the answer comes from the cache (a precondition, bounded): undefined if it never does. */
  const untilCached = async (name: string, input: Record<string, unknown>) => {
    let r = await run(name, input);
    for (let i = 0; i < 100 && r.result._meta.cached !== true; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await run(name, input);
    }
    return r;
  };

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-opcache-')));
    fs.cpSync(path.join(here, '../../fixtures/ts-app'), root, { recursive: true });
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    gateway = await Gateway.create({ root, cacheDir, logger: createLogger('test', 'error') });
    // The catalog watches the workspace once built; before that nothing is cached (cross-file
    // answers would have no way to learn of changes to other files).
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.build();
    expect(ws.catalog.watching).toBe(true);
    // the catalog comes from parse trees: the server is started so that what it is sent can be traced
    await gateway.context.broker.sessionFor(path.join(root, 'src/util/math.ts'), root);
    trace();
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('answers a repeated call from the cache without asking the server', async () => {
    const first = await run('find_references', { symbol: 'formatName' });
    expect(first.result._meta.cached).toBeUndefined();
    expect(first.result.total).toBe(7); // fixtures/ts-app/EXPECTED.md
    const before = sent.length;
    const hits = gateway.runner.operationCacheStats().hits;
    const second = await run('find_references', { symbol: 'formatName' });
    expect(second.result._meta.cached).toBe(true);
    expect(sent.length).toBe(before);
    expect(gateway.runner.operationCacheStats().hits).toBe(hits + 1);
    expect(body(second)).toEqual(body(first));
    expect(second.result._meta.index_state).toBe('ready');
    expect(second.text).toBe(JSON.stringify(second.result, null, 2));
    expect(JSON.parse(second.text)._meta.cached).toBe(true);
    // Another rendering of the same answer is the same entry.
    const md = await gateway.run('find_references', { symbol: 'formatName' });
    expect(md.result._meta.cached).toBe(true);
    expect(md.text).toContain('7 reference(s) to formatName');
  });

  it('an edit on disk to a file the answer was read from invalidates it at once', async () => {
    const rel = 'src/util/strings.ts';
    const abs = path.join(root, rel);
    await run('get_file_outline', { file: rel });
    const cached = await run('get_file_outline', { file: rel });
    expect(cached.result._meta.cached).toBe(true);
    const names = (r: RunResult) => (r.result.symbols as { name: string }[]).map((s) => s.name);
    expect(names(cached)).not.toContain('addedLater');

    fs.appendFileSync(abs, '\nexport function addedLater(): number {\n  return 1;\n}\n');
    const after = await run('get_file_outline', { file: rel }); // no await between the write and the call
    expect(after.result._meta.cached).toBeUndefined();
    expect(names(after)).toContain('addedLater');

    // The same for an answer that points into the edited file from another one.
    const report = fs.readFileSync(path.join(root, 'src/services/report.ts'), 'utf8');
    const at = { file: 'src/services/report.ts', ...positionOf(report, 'formatName(', 'lines.push(') };
    const def = await run('find_definition', at);
    const defLine = (r: RunResult) => (r.result.definitions as { file: string; line: number }[]).map((d) => `${d.file}:${d.line}`);
    expect(defLine(def)).toEqual(['src/util/strings.ts:7']);
    // The watcher re-catalogs strings.ts after the first edit whenever its event arrives, which
    // rightly keeps answers computed before that from being stored: ask until one is.
    expect((await untilCached('find_definition', at)).result._meta.cached).toBe(true);
    fs.writeFileSync(abs, `// one\n// two\n${fs.readFileSync(abs, 'utf8')}`);
    const moved = await run('find_definition', at);
    expect(moved.result._meta.cached).toBeUndefined();
    // Whatever that first answer after the edit was, no stale one was kept: the next names line 9.
    const settled = await run('find_definition', at);
    expect(defLine(settled)).toEqual(['src/util/strings.ts:9']);
  });

  it('an edit to another file that adds a reference invalidates the cross-file answer', async () => {
    const first = await run('find_references', { symbol: 'capitalize' });
    expect(first.result.total).toBe(3);
    // the first answer opened the files that spell the name (the server's project may leave them out): the cache settles after
    expect((await untilCached('find_references', { symbol: 'capitalize' })).result._meta.cached).toBe(true);
    // geometry.ts does not mention capitalize: it is not among the answer's files.
    const geometry = path.join(root, 'src/services/geometry.ts');
    expect(first.result.references as { file: string }[]).not.toContainEqual(expect.objectContaining({ file: 'src/services/geometry.ts' }));
    fs.appendFileSync(geometry, "\nimport { capitalize } from '../util/strings.js';\nexport const shout = capitalize('x');\n");
    // The change reaches the catalog and the server through the watcher: ask until the answer moves.
    let latest = first;
    const deadline = Date.now() + 60_000;
    while (latest.result.total === 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      latest = await run('find_references', { symbol: 'capitalize' });
    }
    expect(latest.result.total).toBe(5);
    expect(latest.result._meta.cached).toBeUndefined();
    expect(latest.result.references as { file: string }[]).toContainEqual(expect.objectContaining({ file: 'src/services/geometry.ts' }));
  }, 90_000);

  it('a restarted server invalidates what its previous generation answered', async () => {
    const input = { symbol: 'padLeft' };
    const first = await run('find_definition', input);
    expect((await run('find_definition', input)).result._meta.cached).toBe(true);
    const s = session();
    const generation = s.generation;
    process.kill(-processGroup(s.pid!), 'SIGKILL'); // the whole process group: typescript-language-server and its tsservers
    const deadline = Date.now() + 30_000;
    while (s.state === 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.state).not.toBe('ready');
    const again = await run('find_definition', input);
    expect(again.result._meta.cached).toBeUndefined();
    expect(s.generation).toBeGreaterThan(generation);
    expect(body(again)).toEqual(body(first));
    trace();
    expect((await run('find_definition', input)).result._meta.cached).toBe(true);
  }, 90_000);
});
