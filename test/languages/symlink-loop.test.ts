// A symlink loop inside the workspace (`loop/up -> ..`) made intelephense index
// the project again under loop/up/loop/up/... and answer every reference once per copy (82 instead
// of 2); the references under loop paths then started more intelephense sessions at the loop's
// composer.json (the first find_references did not answer within a minute). Locations are put back
// on their real paths and de-duplicated in one place (service/locations.ts), and intelephense is
// told to exclude every directory symlink of its root (servers.json symlinkExcludeSetting).
// The loops are real symlinks made by the test in temp copies of the fixtures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES } from '../helpers/gateway.js';
import type { DefinitionEntry, ReferenceEntry } from '../helpers/results.js';

/** A temp copy of a fixture with symlinks (link path → target) made inside it, and a gateway on it. */
async function loopedCopy(name: string, links: Record<string, string>, override?: object): Promise<{ gateway: Gateway; root: string }> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-loop-${name}-`)));
  const root = path.join(tmp, name);
  fs.cpSync(path.join(FIXTURES, name), root, { recursive: true });
  for (const [link, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  }
  const serversFiles: string[] = [];
  if (override) {
    serversFiles.push(path.join(tmp, 'servers.override.json'));
    fs.writeFileSync(serversFiles[0]!, JSON.stringify({ servers: [override] }));
  }
  const gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache'), serversFiles });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  return { gateway, root };
}

async function references(gateway: Gateway, input: Record<string, unknown>): Promise<{ total: number; references: ReferenceEntry[] }> {
  const r = await gateway.run('find_references', { ...input, max_results: 1000, output_format: 'json' });
  return r.result as unknown as { total: number; references: ReferenceEntry[] };
}

function sites(refs: ReferenceEntry[]): string[] {
  return refs.map((r) => `${r.file}:${r.line}:${r.column}`);
}

describe('a symlink loop inside a PHP workspace', () => {
  it('find_references answers each reference once, on its real path', { timeout: 180_000 }, async () => {
    const { gateway } = await loopedCopy('rel-php', { 'loop/up': '..', 'app/Math/again': '../..' });
    const r = await references(gateway, { symbol: 'App\\Math\\Calc::add' });
    // The declaration, Formatter's call and the test's call: nothing under loop/ or again/.
    expect(r.references.map((x) => x.file)).toEqual(['app/Format/Formatter.php', 'app/Math/Calc.php', 'tests/CalcTest.php']);
    expect(r.total).toBe(3);
    expect(new Set(sites(r.references)).size).toBe(r.references.length);
    // Asked through the loop, the same answer: the caller's path is the real one from the start.
    const through = await references(gateway, { file: 'loop/up/loop/up/app/Math/Calc.php', line: 7, column: 28 });
    expect(sites(through.references)).toEqual(sites(r.references));
    // One intelephense for the workspace: the loop's copies of composer.json started no other.
    const ws = await gateway.run('list_workspaces', { output_format: 'json' });
    const servers = JSON.stringify(ws.result);
    expect(servers).not.toContain('loop/up');
  });
});

describe('a symlink loop that intelephense walks', () => {
  it('references it answers under loop paths are counted once, at their real paths', { timeout: 180_000 }, async () => {
    // The exclusion moved off an unused setting: intelephense walks `loop/up` (one link: a walk
    // that ends, ~40 levels deep) and answers every reference once per copy; lspgate's one
    // de-duplication by real path is what keeps the answer at 3.
    const { gateway } = await loopedCopy('rel-php', { 'loop/up': '..' }, { id: 'intelephense', symlinkExcludeSetting: 'lspgateTest.unused' });
    const r = await references(gateway, { file: 'app/Math/Calc.php', line: 7, column: 28 });
    expect(r.references.map((x) => x.file)).toEqual(['app/Format/Formatter.php', 'app/Math/Calc.php', 'tests/CalcTest.php']);
    expect(r.total).toBe(3);
  });
});

describe('a symlink loop inside a TypeScript workspace', () => {
  it('find_references and find_definition answer real paths, each once', { timeout: 180_000 }, async () => {
    const { gateway } = await loopedCopy('ts-app', { 'src/loop/up': '../..', 'src/util/self': '.' });
    const r = await references(gateway, { file: 'src/models/shape.ts', line: 1, column: 10 });
    expect(r.total).toBeGreaterThan(1);
    for (const ref of r.references) expect(ref.file).not.toMatch(/(^|\/)(loop|self)\//);
    expect(new Set(sites(r.references)).size).toBe(r.references.length);
    expect(r.total).toBe(r.references.length);
    const d = await gateway.run('find_definition', { file: 'src/models/shape.ts', line: 1, column: 10, output_format: 'json' });
    const defs = (d.result as unknown as { definitions: DefinitionEntry[] }).definitions;
    expect(defs.map((x) => x.file)).toEqual(['src/util/math.ts']);
  });
});
