/**
 * What a repository brings that lspgate's servers must not run, with no lspgate config involved: a
 * workspace `node_modules/typescript` (typescript-language-server would prefer it to its own), a
 * tsserver plugin named in tsconfig.json, and a pyright virtualenv interpreter named in
 * pyrightconfig.json. Each planted program writes a marker when it runs; after definition,
 * references and diagnostics through the real servers, no marker exists. (The shipped entry pins
 * tsserver to lspgate's own `typescript` package, and local plugins are not allowed.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function world(): { root: string; marker: (name: string) => string; cacheDir: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-held-')));
  dirs.push(base);
  const root = path.join(base, 'repo');
  fs.mkdirSync(path.join(base, 'markers'), { recursive: true });
  fs.mkdirSync(root);
  return { root, marker: (n) => path.join(base, 'markers', n), cacheDir: path.join(base, 'cache') };
}

function put(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
}

const writes = (marker: string) => `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;

/** The servers ran: the definition is answered (by the server, at line 1), references and diagnostics asked. */
async function ask(root: string, cacheDir: string, file: string, line: number, column: number): Promise<void> {
  const gateway = await Gateway.create({ root, cacheDir, logger: createLogger('test', 'error') });
  try {
    const def = await gateway.run('find_definition', { file, line, column, output_format: 'json' });
    expect(JSON.stringify(def)).toMatch(/"line":\s*1\b/);
    for (const [op, input] of [
      ['find_references', { file, line, column }],
      ['get_diagnostics', { file }],
    ] as const) {
      await gateway.run(op, input).catch(() => undefined);
    }
  } finally {
    await gateway.close();
  }
}

describe('a repository cannot make its language servers run its code', () => {
  it('TypeScript: neither a workspace node_modules/typescript nor a tsconfig plugin runs', async () => {
    const { root, marker, cacheDir } = world();
    put(path.join(root, 'node_modules/typescript/package.json'), JSON.stringify({ name: 'typescript', version: '5.9.3', main: 'lib/typescript.js' }));
    for (const f of ['tsserver.js', 'typescript.js', 'tsserverlibrary.js']) put(path.join(root, 'node_modules/typescript/lib', f), writes(marker('typescript')));
    put(path.join(root, 'node_modules/evil-plugin/package.json'), JSON.stringify({ name: 'evil-plugin', version: '1.0.0', main: 'index.js' }));
    put(path.join(root, 'node_modules/evil-plugin/index.js'), writes(marker('plugin')) + 'module.exports = () => ({ create: (info) => info.languageService });\n');
    put(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, plugins: [{ name: 'evil-plugin' }] }, include: ['src'] }));
    put(path.join(root, 'package.json'), JSON.stringify({ name: 'repo', devDependencies: { typescript: '5.9.3' } }));
    put(path.join(root, 'src/a.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\nexport const three = add(1, 2);\n');
    await ask(root, cacheDir, 'src/a.ts', 4, 22);
    expect(fs.existsSync(marker('typescript'))).toBe(false);
    expect(fs.existsSync(marker('plugin'))).toBe(false);
  }, 240_000);

  it("Python: pyright does not run the virtualenv's interpreter a pyrightconfig.json names", async () => {
    const { root, marker, cacheDir } = world();
    const sh = `#!/bin/sh\necho ran > '${marker('python')}'\nexit 1\n`;
    for (const f of ['python', 'python3']) put(path.join(root, 'venv/bin', f), sh, 0o755);
    put(path.join(root, 'venv/pyvenv.cfg'), 'home = /usr/bin\n');
    fs.mkdirSync(path.join(root, 'venv/lib/python3.11/site-packages'), { recursive: true });
    put(path.join(root, 'pyrightconfig.json'), JSON.stringify({ venvPath: '.', venv: 'venv' }));
    put(path.join(root, 'app.py'), 'def add(a: int, b: int) -> int:\n    return a + b\n\n\nthree = add(1, 2)\n');
    await ask(root, cacheDir, 'app.py', 5, 9);
    expect(fs.existsSync(marker('python'))).toBe(false);
  }, 240_000);
});
