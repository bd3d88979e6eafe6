/**
 * The syntax tier passes the catalog's gate like the servers' catalog does: files created after the
 * first walk — a symlink to a file outside the root, a symlinked directory whose target is outside,
 * a source file holding a private key — never get a syntax entry, whether the watcher sees them or a
 * reader asks for them first (get_file_outline and get_symbol parse a file the catalog lacks from
 * syntax at once). On a copy of fixtures/grammar-only: no server runs there, so every answer is the
 * syntax tier's own.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { errorCode } from '../helpers/errors.js';
import { FIXTURES } from '../helpers/gateway.js';
import { removeDir, tempDir, waitFor } from '../helpers/spawn.js';

const OUTSIDE = 'OUTSIDECANARYRSEVEN';
const KEYWORD = 'KEYCANARYRSEVEN';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA ${KEYWORD}\n-----END OPENSSH PRIVATE KEY-----\n`;
const NAMES = ['outside_leak_point', 'deep_leak_point', 'keyed_leak_total'];

let tmp: string;
let root: string;
let gateway: Gateway;

async function answer(op: string, input: Record<string, unknown>): Promise<string> {
  try {
    const { query: _echo, ...rest } = (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch (e) {
    if (!(e instanceof LspgateError)) throw e;
    return JSON.stringify(e.toPayload());
  }
}

const codeOf = (op: string, input: Record<string, unknown>): Promise<string> => errorCode(gateway.run(op, input));

beforeAll(async () => {
  tmp = tempDir('lspgate-syntax-gate-');
  root = path.join(tmp, 'ws');
  fs.cpSync(path.join(FIXTURES, 'grammar-only'), root, { recursive: true });
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(outside, 'dir'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'leak.rs'), `/// ${OUTSIDE}\npub fn outside_leak_point() -> u32 {\n    7\n}\n`);
  fs.writeFileSync(path.join(outside, 'dir/deep.rs'), `/// ${OUTSIDE}\npub fn deep_leak_point() -> u32 {\n    8\n}\n`);
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  if (tmp) removeDir(tmp);
});

describe('the syntax tier enters the catalog through the gate', () => {
  it('a symlink out of the root, a symlinked directory and a private key created later get no syntax entry', async () => {
    expect(await answer('search_symbols', { query: 'cart_total' })).toContain('ruby/lib/cart.rb');
    const ws = await gateway.workspaceFor(undefined);
    expect(ws.catalog.watching).toBe(true);

    // asked for first, before the watcher has seen them: the early path parses a file the catalog lacks
    fs.writeFileSync(path.join(root, 'ruby/lib/keyed.rb'), `class Keyed\n  def keyed_leak_total\n    <<~KEY\n${KEY}    KEY\n  end\nend\n`);
    fs.symlinkSync(path.join(tmp, 'outside/leak.rs'), path.join(root, 'rust/src/leak.rs'));
    fs.symlinkSync(path.join(tmp, 'outside/dir'), path.join(root, 'rust/src/linked'));
    expect(await codeOf('get_file_outline', { file: 'ruby/lib/keyed.rb' })).toBe('SECRET_FILE');
    expect(await codeOf('get_symbol', { symbol_id: 'ruby/lib/keyed.rb::Keyed.keyed_leak_total#method' })).toBe('SECRET_FILE');
    expect(await codeOf('get_file_outline', { file: 'rust/src/leak.rs' })).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await codeOf('get_file_outline', { file: 'rust/src/linked/deep.rs' })).toBe('PATH_OUTSIDE_WORKSPACE');

    // written last: once the watcher has cataloged it, it has seen the others
    fs.writeFileSync(path.join(root, 'shell/sentinel.sh'), 'sentinel_arrived() {\n  echo 7\n}\n');
    await waitFor(() => ws.catalog.files().has('shell/sentinel.sh'), 'the watcher to catalog shell/sentinel.sh');
    await ws.catalog.settled();
    await answer('refresh', { paths: ['ruby/lib/keyed.rb', 'rust/src/leak.rs', 'rust/src/linked/deep.rs'] });
    await answer('refresh', {});

    const texts: string[] = [];
    for (const query of [...NAMES, 'leak']) texts.push(await answer('search_symbols', { query }));
    for (const query of [OUTSIDE, KEYWORD, ...NAMES]) texts.push(await answer('search_code', { query }));
    texts.push(await answer('get_repo_outline', {}));
    for (const text of texts) for (const canary of [OUTSIDE, KEYWORD, ...NAMES]) expect(text).not.toContain(canary);
    expect(await codeOf('get_file_outline', { file: 'ruby/lib/keyed.rb' })).toBe('SECRET_FILE');
    // the gate kept them out of the catalog itself, syntax entries included
    expect([...ws.catalog.files().keys()].filter((f) => /leak|keyed|linked/.test(f))).toEqual([]);
    // what is inside and ordinary still enters, from syntax
    const sentinel = JSON.parse(await answer('search_symbols', { query: 'sentinel_arrived' })) as {
      results: { file: string }[];
      _meta: { index_state: string };
    };
    expect(sentinel.results.map((r) => r.file)).toContain('shell/sentinel.sh');
    expect(sentinel._meta.index_state).toBe('syntax');
  }, 240_000);
});
