/**
 * Server texts pass the read gate (src/service/server-texts.ts): get_hover and signature_help on a
 * symbol declared in a secret-named file (`.env.ts`, `id_rsa.py`), in a file holding a private key,
 * or outside the workspace through a tsconfig `paths` entry are withheld with the reason; a private
 * key quoted through a type (a copy of the constant, a type error's message) is redacted; library
 * declarations (lib.d.ts) are shown as before. Workspace: test/helpers/hostile-texts.ts.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureGateway } from '../helpers/gateway.js';
import { leaked, textsWorld } from '../helpers/hostile-texts.js';
import { positionOf } from '../helpers/positions.js';

const w = textsWorld();
const gateway = await Gateway.create({ root: w.root, cacheDir: path.join(w.base, 'cache') });
const fx = fixtureGateway(gateway, w.root, path.join(w.base, 'cache'));
afterAll(async () => {
  await gateway.close();
  fs.rmSync(w.base, { recursive: true, force: true });
});

async function hoverAt(file: string, needle: string, offset = 0) {
  const p = positionOf(w.root, file, needle, { offset });
  return fx.gateway.run('get_hover', { file, line: p.line, column: p.column, output_format: 'json' });
}

async function helpAt(file: string, needle: string, after?: string) {
  const p = positionOf(w.root, file, needle, after ? { after } : {});
  return fx.gateway.run('signature_help', { file, line: p.line, column: p.column, output_format: 'json' });
}

describe('hover and signature help quote nothing reads may not (TypeScript)', () => {
  it('a constant from .env.ts: the hover is withheld, naming the secret file', async () => {
    const r = await hoverAt('src/main.ts', 'API_TOKEN.length');
    expect(leaked(r.result)).toEqual([]);
    expect(r.result).toMatchObject({ found: true, markdown: '', code: [] });
    expect(r.result.withheld).toMatch(/src\/\.env\.ts, a secret file/);
    expect(r.result._meta.warnings!.join('\n')).toContain('src/.env.ts, a secret file');
  });

  it('signature help of a function from .env.ts is withheld', async () => {
    const r = await helpAt('src/main.ts', "'note')");
    expect(leaked(r.result)).toEqual([]);
    expect(r.result.signatures).toEqual([]);
    expect(r.result.withheld).toMatch(/src\/\.env\.ts, a secret file/);
  });

  it('a private-key string constant: withheld at its use, redacted through a copy and in a type error', async () => {
    const use = await hoverAt('src/main.ts', 'SIGNING_KEY;');
    expect(leaked(use.result)).toEqual([]);
    expect(use.result.withheld).toMatch(/src\/keys\.ts, which holds a private key/);
    const copy = await hoverAt('src/main.ts', 'keyCopy');
    expect(leaked(copy.result)).toEqual([]);
    expect(copy.result.markdown).toContain('[private key redacted]');
    expect(copy.result._meta.warnings!.join('\n')).toMatch(/private key block .* replaced/);
    const diags = await fx.run('get_diagnostics', { file: 'src/main.ts' });
    expect(leaked(diags)).toEqual([]);
    expect(JSON.stringify(diags)).toContain('[private key redacted]');
  });

  it('a constant and a function declared outside the root (tsconfig paths): withheld with the reason', async () => {
    const r = await hoverAt('src/main.ts', 'OUTSIDE_TOKEN.length');
    expect(leaked(r.result)).toEqual([]);
    expect(r.result.withheld).toContain(`${path.join(w.outside, 'lib.ts')}, outside the workspace and not library code`);
    const help = await helpAt('src/main.ts', 'OUTSIDE_TOKEN, 1)');
    expect(leaked(help.result)).toEqual([]);
    expect(help.result.withheld).toContain('outside the workspace');
  });

  it('library declarations (lib.d.ts) are shown as before', async () => {
    const r = await hoverAt('src/main.ts', 'max(1');
    expect(r.result.withheld).toBeUndefined();
    expect(r.result.markdown).toContain('max(...values: number[]): number');
    const help = await helpAt('src/main.ts', '2);');
    expect(help.result.withheld).toBeUndefined();
    expect((help.result.signatures as { label: string }[])[0]!.label).toContain('max(...values: number[]): number');
  });
});

describe('hover and signature help quote nothing reads may not (Python)', () => {
  it('a constant from a secret-named module and one holding a private key: withheld', async () => {
    const token = await hoverAt('py/app.py', 'TOKEN)');
    expect(leaked(token.result)).toEqual([]);
    expect(token.result.withheld).toMatch(/py\/id_rsa\.py, a secret file/);
    const pem = await hoverAt('py/app.py', 'PEM)');
    expect(leaked(pem.result)).toEqual([]);
    expect(pem.result.withheld).toMatch(/py\/pkeys\.py, which holds a private key/);
    const help = await helpAt('py/app.py', 'TOKEN)', 'signed');
    expect(leaked(help.result)).toEqual([]);
    expect(help.result.withheld).toMatch(/id_rsa\.py, a secret file/);
  });
});
