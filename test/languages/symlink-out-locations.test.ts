// A file inside the workspace that is a symlink to a file outside it (`src/link.ts -> ../outside/b.ts`)
// is in tsserver's project (tsconfig `include: src/**`), so references answer locations on the link's
// path. DESIGN: "symlinks out of the root are refused": such a location is reported at its real path
// outside the root, external, with no text quoted from it — and the rest of the answer still comes
// (before, the whole find_references failed PATH_OUTSIDE_WORKSPACE on the link). Every operation that
// turns a server's location into a path goes through the same conversion (service/locations.ts
// `locate`): hover's declaration, call trees, type hierarchy and diagnostics' related locations too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import type { JsonResult, ReferenceEntry } from '../helpers/results.js';

const MARKER = 'OUTSIDE-TEXT-42';

const OUTSIDE_B = [
  "import { shared } from './shared';",
  `export const OUTSIDE_MARKER = shared('${MARKER}');`,
  '/** A base declared outside the workspace. */',
  'export class OutsideBase { label = 1; }',
  `export function outsideFn(a = '${MARKER}'): string { return shared(a); }`,
  'export function needsArg(a: string): string { return a; }',
  '',
].join('\n');

const USE_TS = [
  "import { OutsideBase, needsArg, outsideFn } from './link';",
  'export class Inner extends OutsideBase {}',
  'export function callIt(): string { return outsideFn(); }',
  'export function bad(): string { return needsArg(); }',
  '',
].join('\n');

function project(): { tmp: string; root: string; outside: string } {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-outlink-')));
  const root = path.join(tmp, 'root');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'b.ts'), OUTSIDE_B);
  fs.writeFileSync(path.join(outside, 'shared.ts'), 'export function shared(s: string): string { return s; }\n');
  fs.writeFileSync(
    path.join(root, 'src/shared.ts'),
    "export function shared(s: string): string { return s; }\nexport function useIt(): string { return shared('inside'); }\n",
  );
  fs.writeFileSync(path.join(root, 'src/use.ts'), USE_TS);
  fs.symlinkSync(path.join(outside, 'b.ts'), path.join(root, 'src/link.ts'));
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' }, include: ['src/**/*'] }),
  );
  return { tmp, root, outside };
}

/** 1-based line and column of the first `text` in a file of the project. */
function at(root: string, rel: string, text: string, offset = 0): { file: string; line: number; column: number } {
  const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${text} not in ${rel}`);
  return { file: rel, line: i + 1, column: lines[i]!.indexOf(text) + 1 + offset };
}

describe('a symlink inside the workspace to a file outside it (typescript-language-server)', () => {
  const { tmp, root, outside } = project();
  const realB = path.join(outside, 'b.ts');
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
  });
  afterAll(async () => {
    await gateway?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("find_references answers; the link's locations are on their real outside path, external, unquoted", { timeout: 180_000 }, async () => {
    const r = await gateway.run('find_references', { file: 'src/shared.ts', line: 1, column: 17, max_results: 1000, output_format: 'json' });
    const refs = (r.result as unknown as { references: ReferenceEntry[] }).references;
    const files = refs.map((x) => x.file);
    expect(files).toContain('src/shared.ts');
    // tsserver saw the link's uses of `shared`: they are reported where the file really is.
    const out = refs.filter((x) => x.file === realB);
    expect(out.length).toBeGreaterThan(0);
    expect(files.some((f) => f.includes('link.ts'))).toBe(false);
    // Nothing of the outside file's text, in the structured answer or in the markdown.
    expect(JSON.stringify(r.result)).not.toContain(MARKER);
    const md = await gateway.run('find_references', { file: 'src/shared.ts', line: 1, column: 17, max_results: 1000 });
    expect(JSON.stringify(md.result)).not.toContain(MARKER);
    expect(JSON.stringify(md.result)).toContain('outside/b.ts');
  });

  // Before, hover resolved the declaration lexically (the link's path is inside the root) and parsed
  // the outside file's declaration: its default value (the marker) came back in `signature`.
  it('get_hover never parses a declaration reached through the link', { timeout: 180_000 }, async () => {
    const r = await gateway.run('get_hover', { ...at(root, 'src/use.ts', 'outsideFn()'), output_format: 'json' });
    // declared outside the workspace and not library code: withheld with the reason, as get_symbol does
    expect((r.result as JsonResult).withheld).toEqual(expect.stringContaining('outside the workspace'));
    expect(JSON.stringify(r.result)).not.toContain(MARKER);
  });

  // Before, the call tree tested containment on the link's path but reported the real path made
  // relative to the root: `../outside/b.ts`, a workspace-relative path that leaves the workspace.
  it('find_callers leaves the callers behind the link out as external, never as ../ paths', { timeout: 180_000 }, async () => {
    const r = await gateway.run('find_callers', { file: 'src/shared.ts', line: 1, column: 17, depth: 1, output_format: 'json' });
    const text = JSON.stringify(r.result);
    expect(text).not.toContain('../');
    expect(text).not.toContain('link.ts');
    expect((r.result._meta.warnings ?? []).join('\n')).toMatch(/outside the workspace/);
  });

  // Before, a base class reached through the link was an external node on the link's path (inside
  // the root); it is the file's real path outside.
  it('type_hierarchy puts an external base reached through the link on its real path', { timeout: 180_000 }, async () => {
    const r = await gateway.run('type_hierarchy', { symbol: 'Inner', direction: 'supertypes', output_format: 'json' });
    const root_ = (r.result as unknown as { root: { supertypes?: { name: string; file: string; external?: boolean }[] } }).root;
    const base = root_.supertypes?.find((n) => n.name === 'OutsideBase');
    expect(base).toBeDefined();
    expect(base!.external).toBe(true);
    expect(base!.file).toBe(realB);
  });

  // Before, a related location in the linked file was reported as the workspace file `src/link.ts`.
  it('get_diagnostics reports a related location behind the link on its real path, external', { timeout: 180_000 }, async () => {
    const r = await gateway.run('get_diagnostics', { file: 'src/use.ts', output_format: 'json' });
    const files = (r.result as unknown as { files: { diagnostics: { code?: string; related?: { file: string }[] }[] }[] }).files;
    const diags = files.flatMap((f) => f.diagnostics);
    const missing = diags.find((d) => d.code === '2554');
    expect(missing?.related?.length).toBeGreaterThan(0);
    expect(missing!.related!.map((x) => x.file)).toEqual([realB]);
  });
});
