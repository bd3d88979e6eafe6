// `npm run lint:languages` (scripts/check-language-names.mjs) on a planted tree: a language name, a
// server id, a project manifest or a language's extension as a string literal outside src/adapters/
// and src/config/ is reported with its place; inside them, in comments and in longer strings it is not.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/check-language-names.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-langnames-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function plant(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
}

describe('the language-name lint check', () => {
  it('reports literals outside the adapters and config, and nothing else', () => {
    plant(
      'analysis/report.ts',
      "// a python file\nexport const isGo = (l: string) => l === 'go';\nexport const note = 'typescript and javascript';\nexport type G = 'tsx' | 'other';\n",
    );
    plant('adapters/go/profile.ts', "export const name = 'go';\n");
    plant('config/ids.ts', "export const ids = { '.php': 'php' };\n");
    const r = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('  '))).toEqual(["  analysis/report.ts:2: 'go'", "  analysis/report.ts:4: 'tsx'"]);
    // loading the TypeScript parser in a fresh process takes seconds on a loaded machine
  }, 60_000);

  it('reports server ids, project manifests and extensions the same way', () => {
    plant('cache/session.ts', "export const fast = new Set(['gopls']);\nexport const note = 'gopls answers';\n");
    plant('catalog/filter.ts', "export const projects = ['Cargo.toml', 'go.work'];\n");
    plant('service/modules.ts', "export const exts = ['.tsx', '.rb'];\n");
    plant('adapters/rust/more.ts', "export const m = 'Cargo.toml';\n");
    const r = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    const found = r.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(found).toEqual(
      expect.arrayContaining([
        "  cache/session.ts:1: 'gopls'",
        "  catalog/filter.ts:1: 'Cargo.toml'",
        "  catalog/filter.ts:1: 'go.work'",
        "  service/modules.ts:1: '.tsx'",
        "  service/modules.ts:1: '.rb'",
      ]),
    );
    expect(found.filter((l) => l.includes('adapters/') || l.includes('gopls answers'))).toEqual([]);
  }, 60_000);
});
