/**
 * Names before the pass: on a cold catalog, a question by name is answered while the syntax pass is
 * still running — the unparsed files that mention the name are parsed first — and says the catalog
 * was still building; a name no file declares is "not found" only once every file is parsed.
 * The fixture is large enough that the pass takes seconds on these machines; the declaring file is
 * the last one the walk reaches.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { WorkspaceCatalog } from '../../src/catalog/catalog.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { heldForServers } from '../../src/service/cataloging/syntax-pool.js';

const FILES = 1000;

function moduleText(i: number): string {
  const methods = Array.from({ length: 12 }, (_, m) => `  method${m}(value: number): number {\n    return helper${m}(value + ${i}) * this.base;\n  }\n`);
  const fns = Array.from(
    { length: 8 },
    (_, f) => `export function helper${i}_${f}(x: number): number {\n  const y = x * ${f + 1};\n  return y > 10 ? y - 1 : y + 1;\n}\n`,
  );
  return [
    `import { helper0, helper1, helper2, helper3, helper4, helper5, helper6, helper7, helper8, helper9, helper10, helper11 } from '../common';`,
    `export interface Shape${i} {\n  id: number;\n  name: string;\n}\n`,
    `export class Module${i} {\n  constructor(private readonly base: number) {}\n${methods.join('\n')}}\n`,
    ...fns,
  ].join('\n');
}

function generate(root: string): void {
  const common = Array.from({ length: 12 }, (_, m) => `export function helper${m}(x: number): number {\n  return x + ${m};\n}\n`).join('\n');
  fs.writeFileSync(path.join(root, 'common.ts'), common);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, `m${String(Math.floor(i / 100)).padStart(2, '0')}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}.ts`), moduleText(i));
  }
  fs.mkdirSync(path.join(root, 'zz'));
  fs.writeFileSync(
    path.join(root, 'zz', 'target.ts'),
    `// the last file the walk reaches\nexport class ZetaTarget {\n  run(): number {\n    return 1;\n  }\n}\n`,
  );
  fs.writeFileSync(path.join(root, 'zz', 'user.ts'), `import { ZetaTarget } from './target';\n\nexport const made = new ZetaTarget().run();\n`);
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' } }));
}

type Answer = { result: Record<string, unknown> & { _meta: { index_state: string; warnings?: string[] } }; text: string };

describe('a name asked while the syntax pass runs', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-names-')));
  generate(root);
  const caches: string[] = [];
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const g of gateways) await g.close();
    for (const c of [...caches, root]) fs.rmSync(c, { recursive: true, force: true });
  });

  /** A gateway on a new cache: every catalog is cold. */
  async function cold(): Promise<{ g: Gateway; catalog: WorkspaceCatalog }> {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-names-cache-'));
    caches.push(cacheDir);
    const g = await Gateway.create({ root, cacheDir });
    gateways.push(g);
    return { g, catalog: (await g.workspaceFor(root)).catalog as WorkspaceCatalog };
  }

  it('answers get_symbol from the files that mention it, before the pass ends, marked as building', async () => {
    const { g, catalog } = await cold();
    const r = (await g.run('get_symbol', { symbol: 'ZetaTarget' })) as unknown as Answer;
    const passDone = catalog.tier.ready;
    expect(passDone).toBe(false);
    // get_symbol needs no server: none was started for it (the tests run servers on demand)
    expect(g.context.broker.info()).toEqual([]);
    expect((r.result.symbol as { symbol_id: string }).symbol_id).toBe('zz/target.ts::ZetaTarget#class');
    expect(r.result.source).toContain('export class ZetaTarget');
    expect(r.result._meta.index_state).toBe('indexing');
    expect(r.result._meta.warnings?.join('\n')).toMatch(
      /the catalog was still building \(\d+ file\(s\) not yet parsed\): ZetaTarget was resolved after parsing first the 2 of them/,
    );
    expect(r.text).toMatch(/^> \*\*index_state: indexing\*\* — this answer may be incomplete: the catalog was still building/);
    // the pass still parses every file, and the answer after it is the same symbol, unmarked
    await catalog.tier.whenReady();
    const after = (await g.run('get_symbol', { symbol: 'ZetaTarget', output_format: 'json' })) as unknown as Answer;
    expect((after.result.symbol as { symbol_id: string }).symbol_id).toBe('zz/target.ts::ZetaTarget#class');
    expect(after.result._meta.warnings ?? []).not.toContainEqual(expect.stringMatching(/still building/));
  });

  it('answers find_definition by name with the declaration, marked as building', async () => {
    const { g } = await cold();
    const r = (await g.run('find_definition', { symbol: 'ZetaTarget.run', output_format: 'json' })) as unknown as Answer;
    // a hold the question took on the pass while its server loaded ended with the answer
    expect(heldForServers()).toBe(0);
    const defs = r.result.definitions as { file: string; line: number }[];
    expect(defs.map((d) => `${d.file}:${d.line}`)).toEqual(['zz/target.ts:3']);
    expect(r.result._meta.index_state).toBe('indexing');
    expect(r.result._meta.warnings?.join('\n')).toMatch(/the catalog was still building/);
  });

  it('holds the pass back while a semantic question waits for its loading server, until the answer', async () => {
    const { g, catalog } = await cold();
    // the build starts, a name is answered before its pass ends; then a question by position starts tsserver while the pass runs
    const named = (await g.run('get_symbol', { symbol: 'ZetaTarget', output_format: 'json' })) as unknown as Answer;
    expect(named.result._meta.index_state).toBe('indexing');
    let heldAtOpen: number | undefined;
    let passDoneAtOpen: boolean | undefined;
    g.context.broker.onSessionCreated?.((s) =>
      s.onTrace((e) => {
        if (e.direction !== 'send' || e.method !== 'textDocument/didOpen' || heldAtOpen !== undefined) return;
        heldAtOpen = heldForServers();
        passDoneAtOpen = catalog.tier.ready;
      }),
    );
    const r = (await g.run('find_definition', { file: 'zz/user.ts', line: 3, column: 25, output_format: 'json' })) as unknown as Answer;
    expect(passDoneAtOpen).toBe(false);
    expect(heldAtOpen).toBe(1);
    expect((r.result.definitions as { file: string; line: number }[]).map((d) => `${d.file}:${d.line}`)).toEqual(['zz/target.ts:2']);
    expect(heldForServers()).toBe(0);
    await catalog.tier.whenReady();
  }, 180_000);

  it('says SYMBOL_NOT_FOUND only once every file is parsed', async () => {
    const { g, catalog } = await cold();
    const err = await g.run('get_symbol', { symbol: 'NoSuchNameAnywhere' }).then(
      () => undefined,
      (e: unknown) => e as { code: string },
    );
    expect(catalog.tier.ready).toBe(true);
    expect(err?.code).toBe('SYMBOL_NOT_FOUND');
  });
});
