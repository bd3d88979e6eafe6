/**
 * What a repository brings that lspgate's servers must not run, with no lspgate config involved: a
 * workspace `node_modules/typescript` (typescript-language-server would prefer it to its own), a
 * tsserver plugin named in tsconfig.json, and a pyright virtualenv interpreter named in
 * pyrightconfig.json; for Go, a go.mod that names another toolchain (`toolchain go1.99.0`: the go
 * command gopls runs would look for `go1.99.0` on PATH, then download it) and a cgo file whose
 * `#cgo pkg-config:` line chooses what `pkg-config` is run with. Each planted program writes a marker
 * when it runs; after definition, references and diagnostics through the real servers, no marker
 * exists. (The shipped entries pin tsserver to lspgate's own `typescript` package with no local
 * plugins, run gopls with GOTOOLCHAIN=local, and with CGO_ENABLED=0 for a folder the user has not
 * trusted.) The Go programs are stand-ins the user could have on PATH (a `go1.99.0` from
 * golang.org/dl, a `pkg-config`): what the repository controls is only whether they are run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { LspgateError, toLspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';
import { goAvailable, goExtraPath } from '../helpers/go.js';

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

/**
 * The servers ran: the definition is answered (by the server, at `defLine`; undefined: any answer
 * or coded error, for a folder the server cannot load), references and diagnostics asked.
 */
async function ask(
  root: string,
  cacheDir: string,
  file: string,
  line: number,
  column: number,
  opts: { defLine?: number; serversFiles?: string[] } = { defLine: 1 },
): Promise<void> {
  const gateway = await Gateway.create({ root, cacheDir, logger: createLogger('test', 'error'), serversFiles: opts.serversFiles ?? [] });
  try {
    const def = await gateway.run('find_definition', { file, line, column, output_format: 'json' }).catch((e: unknown) => toLspgateError(e));
    if (opts.defLine !== undefined) expect(JSON.stringify(def)).toMatch(new RegExp(`"line":\\s*${opts.defLine}\\b`));
    else expect(def instanceof LspgateError ? def.code : 'answered').not.toBe('SERVER_NOT_INSTALLED');
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
    for (const f of ['tsserver.js', 'typescript.js', 'tsserverlibrary.js'])
      put(path.join(root, 'node_modules/typescript/lib', f), writes(marker('typescript')));
    put(path.join(root, 'node_modules/evil-plugin/package.json'), JSON.stringify({ name: 'evil-plugin', version: '1.0.0', main: 'index.js' }));
    put(
      path.join(root, 'node_modules/evil-plugin/index.js'),
      writes(marker('plugin')) + 'module.exports = () => ({ create: (info) => info.languageService });\n',
    );
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

  describe.runIf(goAvailable)('Go (skipped, with a warning, when gopls or go is missing)', () => {
    /** Programs a user may have on PATH, each writing a marker when run; a user servers.json puts them on gopls's PATH. */
    function goPrograms(base: string, marker: (name: string) => string): string[] {
      const bin = path.join(base, 'user-bin');
      const sh = (name: string) => `#!/bin/sh\necho "$0 $*" >> '${marker(name)}'\nexit 1\n`;
      put(path.join(bin, 'go1.99.0'), sh('toolchain'), 0o755);
      put(path.join(bin, 'pkg-config'), sh('pkg-config'), 0o755);
      const file = path.join(base, 'user-servers.json');
      put(file, JSON.stringify({ servers: [{ id: 'gopls', extraPath: [bin, ...goExtraPath] }] }));
      return [file];
    }

    it('a go.mod naming another toolchain does not make gopls run or fetch it (GOTOOLCHAIN=local)', async () => {
      const { root, marker, cacheDir } = world();
      const serversFiles = goPrograms(path.dirname(root), marker);
      put(path.join(root, 'go.mod'), 'module example.com/held\n\ngo 1.99.0\n\ntoolchain go1.99.0\n');
      put(path.join(root, 'held.go'), 'package held\n\nfunc Two() int { return 2 }\n\nvar three = Two() + 1\n');
      // the go command refuses the module (it needs go >= 1.99.0): any coded answer, no toolchain run
      await ask(root, cacheDir, 'held.go', 5, 13, { serversFiles });
      expect(fs.existsSync(marker('toolchain'))).toBe(false);
    }, 240_000);

    it('a cgo file does not make gopls run pkg-config with the arguments it chose (CGO_ENABLED=0, untrusted)', async () => {
      const { root, marker, cacheDir } = world();
      const serversFiles = goPrograms(path.dirname(root), marker);
      put(path.join(root, 'go.mod'), 'module example.com/held\n\ngo 1.21\n');
      put(
        path.join(root, 'c.go'),
        'package held\n\n// #cgo pkg-config: --define-variable=prefix=/tmp lspgate-held\n// int one(void) { return 1; }\nimport "C"\n\nfunc One() int { return int(C.one()) }\n',
      );
      put(path.join(root, 'held.go'), 'package held\n\nfunc Two() int { return 2 }\n\nvar three = Two() + 1\n');
      await ask(root, cacheDir, 'held.go', 5, 13, { serversFiles, defLine: 3 });
      expect(fs.existsSync(marker('pkg-config'))).toBe(false);
    }, 240_000);
  });
});
