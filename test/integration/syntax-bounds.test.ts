/**
 * Every parse of the syntax tier is bounded and off the thread that answers calls. Java is parsed
 * by the syntax tier alone (no server), so what the catalog holds is what the workers answered:
 * - a file that needs more than the workers' heap (limits.parseHeapMb, small here) fails alone with
 *   LIMIT_EXCEEDED: its worker dies and is replaced, the files after it in its batch are parsed, the
 *   workspace is `partial` with the file and the reason (it was `ready` with 0 files: the dead
 *   worker failed the whole pass, and only the log said so);
 * - a file over the parse deadline (limits.parseTimeoutMs) fails alone with TIMEOUT (there was no
 *   deadline: the file was parsed for as long as it took);
 * - a minified file (by its shape, under a source name) is left out of the catalog, counted in
 *   `skipped.minified`, refused by name with the reason, and still found by search_text;
 * - a changed file that takes long to parse does not hold other calls: they answer while it is
 *   parsed (it was parsed in the process's own turn, and every call waited for it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { Limits } from '../../src/config/schema.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { type FixtureGateway, fixtureGateway } from '../helpers/gateway.js';

/** One class with `n` empty methods: parse time and heap grow with n whatever the parser's walks do. */
function manyMethods(name: string, n: number): string {
  const lines = [`class ${name} {`];
  for (let i = 0; i < n; i++) lines.push(`  void m${i}() {}`);
  return lines.join('\n') + '\n}\n';
}

const FINE = (name: string) => `class ${name} {\n  int total(int a, int b) { return a + b; }\n}\n`;
/** A minified stylesheet on one line (`.a0{color:red}.a1{...`, 320 KB), under a plain source name. */
const MINIFIED = Array.from({ length: 20_000 }, (_, i) => `.a${i}{color:red}`).join('');

async function world(limits: Partial<Limits>, files: Record<string, string>): Promise<FixtureGateway> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-bounds-')));
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-bounds-cache-'));
  const gateway = await Gateway.create({ root, cacheDir, limits: { maxFileBytes: 20_000_000, ...limits } });
  afterAll(async () => {
    await gateway.close();
    for (const d of [root, cacheDir]) fs.rmSync(d, { recursive: true, force: true });
  });
  return fixtureGateway(gateway, root, cacheDir);
}

interface IndexAnswer {
  state: string;
  files: number;
  errors: { file: string; code: string; message: string }[];
  skipped: Record<string, number>;
  _meta: { index_state: string; warnings?: string[] };
}

describe('syntax parsing is bounded per file and off the main thread', () => {
  it('a file over the workers’ heap cap fails alone (LIMIT_EXCEEDED); the rest of its batch is cataloged; the workspace is partial', async () => {
    // Aaa sorts first: the files after it in its batch go to the worker that replaces the dead one
    const fx = await world(
      { parseHeapMb: 32 },
      { 'Aaa.java': manyMethods('Aaa', 150_000), 'Fine.java': FINE('Fine'), 'Other.java': FINE('Other'), 'app.css': MINIFIED },
    );
    const r = (await fx.run('index_folder', { path: fx.root })) as unknown as IndexAnswer;
    expect(r.state).toBe('partial');
    expect(r.errors.map((e) => [e.file, e.code])).toEqual([['Aaa.java', 'LIMIT_EXCEEDED']]);
    expect(r.errors[0]!.message).toContain('parseHeapMb');
    expect(r.files).toBe(2);
    // Java has no server here: the answer is labeled syntax, which outranks partial in index_state
    // (meta-collector's rank); the catalog's state and the warning say what is missing
    expect(r._meta.index_state).toBe('syntax');
    expect(r._meta.warnings?.join(' ')).toContain('could not be cataloged (LIMIT_EXCEEDED 1)');

    const repos = (await fx.run('list_repos')).repos as { root: string; state: string; failed_files: number; failed?: string }[];
    const mine = repos.find((x) => x.root === fx.root)!;
    expect(mine).toMatchObject({ state: 'partial', failed_files: 1 });
    expect(mine.failed).toContain('LIMIT_EXCEEDED 1: Aaa.java');

    const outline = await fx.run('get_file_outline', { file: 'Other.java', detail: 'names' });
    expect(JSON.stringify(outline.symbols)).toContain('total');

    // the minified stylesheet: left out of the catalog by its shape, its reason given; search_text still reads it
    expect(r.skipped.minified).toBe(1);
    const refused = await fx.runError('get_file_outline', { file: 'app.css' });
    expect([refused.code, refused.message]).toEqual(['LIMIT_EXCEEDED', expect.stringContaining('minified') as unknown as string]);
    const found = await fx.run('search_text', { query: '.a5{color:red}.a6{' });
    expect((found.matches as { file: string }[]).map((m) => m.file)).toEqual(['app.css']);
  }, 300_000);

  it('a file over the parse deadline fails alone (TIMEOUT); the others are cataloged', async () => {
    // 150,000 methods take tens of seconds to catalog; a one-method file, milliseconds once its grammar is loaded
    const fx = await world({ parseTimeoutMs: 1000 }, { 'Aaa.java': manyMethods('Aaa', 150_000), 'Fine.java': FINE('Fine'), 'Other.java': FINE('Other') });
    const r = (await fx.run('index_folder', { path: fx.root })) as unknown as IndexAnswer;
    expect(r.errors.map((e) => [e.file, e.code])).toEqual([['Aaa.java', 'TIMEOUT']]);
    expect(r.errors[0]!.message).toContain('parseTimeoutMs');
    expect([r.state, r.files, r._meta.index_state]).toEqual(['partial', 2, 'syntax']);
    expect(r._meta.warnings?.join(' ')).toContain('could not be cataloged (TIMEOUT 1)');
  }, 300_000);

  it('a changed file that takes long to parse holds no other call: they answer while it is parsed', async () => {
    const fx = await world({ parseHeapMb: 4096 }, { 'Big.java': FINE('Big'), 'Fine.java': FINE('Fine') });
    await fx.run('index_folder', { path: fx.root });
    fs.writeFileSync(path.join(fx.root, 'Big.java'), manyMethods('Big', 150_000));
    let parsed = false;
    const big = fx.run('refresh', { paths: ['Big.java'] }).finally(() => (parsed = true));
    // before, the parse ran in this thread's turn once the file was read: this timer fired only after it
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < 3; i++) {
      const outline = await fx.run('get_file_outline', { file: 'Fine.java', detail: 'names' });
      expect(JSON.stringify(outline.symbols)).toContain('total');
      const hits = await fx.run('search_symbols', { query: 'Fine' });
      expect((hits.results as { file: string }[]).map((h) => h.file)).toContain('Fine.java');
    }
    expect(parsed).toBe(false);
    // it ends: cataloged, or over the default deadline on a slow machine — either way said
    const done = (await big) as { refreshed: string[]; errors: { file: string; code: string }[] };
    expect(done.refreshed.includes('Big.java') || done.errors.some((e) => e.file === 'Big.java' && e.code === 'TIMEOUT')).toBe(true);
  }, 300_000);
});
