/**
 * Directories named like build output (build, dist, out, target, coverage) are output only where
 * build tools put them — at the root or beside a project manifest — and source elsewhere (a package
 * named build, as Go's go/build, or src/build/ of build scripts). A file the walk leaves out is still
 * answered when asked for by path, and the ids its outline gives are answered by get_symbol.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureGateway } from '../helpers/gateway.js';

type Hit = { symbol_id: string; name: string };

describe('output-named directories', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-outdirs-')));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' } }));
  write('src/build/steps.ts', 'export function compileSteps(): number {\n  return 1;\n}\n');
  write('src/main.ts', "import { compileSteps } from './build/steps';\nexport const n = compileSteps();\n");
  write('build/out.ts', 'export function emittedOutput(): number {\n  return 2;\n}\n');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const gateway = await Gateway.create({ root, cacheDir });
  const fx = fixtureGateway(gateway, root, cacheDir);
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('src/build/ is source: cataloged and found by search_symbols; the root build/ is output and left out', async () => {
    const found = await fx.run('search_symbols', { query: 'compileSteps' });
    expect(found.results.map((h: Hit) => h.symbol_id)).toContain('src/build/steps.ts::compileSteps#function');
    const out = await fx.run('search_symbols', { query: 'emittedOutput' });
    expect(out.results.map((h: Hit) => h.name)).not.toContain('emittedOutput');
  }, 150_000);

  it('a left-out file asked for by path: its outline ids are answered by get_symbol', async () => {
    const outline = await fx.run('get_file_outline', { file: 'build/out.ts', detail: 'full' });
    const id = (outline.symbols as Hit[]).find((s) => s.name === 'emittedOutput')!.symbol_id;
    expect(id).toBe('build/out.ts::emittedOutput#function');
    const sym = await fx.run('get_symbol', { symbol_id: id });
    expect(sym.symbol).toMatchObject({ symbol_id: id, name: 'emittedOutput', kind: 'function' });
  }, 150_000);
});
