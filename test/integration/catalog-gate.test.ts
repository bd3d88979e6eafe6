/**
 * One gate for every file that enters the catalog: files that appear after the first catalog (seen
 * by the watcher, then asked for by `refresh`) pass the same file-safety rules as the first walk.
 * A symlink to a file outside the root, a symlinked directory whose target is outside, and files
 * holding a private key (a source file and a Markdown one) are created inside the workspace after
 * it was cataloged and searched; none of their text may reach search_symbols, search_code, search,
 * search_text, get_file_outline, get_symbol(s) or a lookup by name — neither after the watcher saw them nor after refresh.
 * Over typescript-language-server on a copy of fixtures/ts-app.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { errorCode } from '../helpers/errors.js';
import { removeDir, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

const OUTSIDE = 'OUTSIDECANARYQSEVEN';
const KEYWORD = 'KEYCANARYQSEVEN';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA ${KEYWORD}\n-----END OPENSSH PRIVATE KEY-----\n`;
const CANARIES = [OUTSIDE, KEYWORD, 'OutsideLeak', 'DeepLeak', 'KeyedLeak'];

let tmp: string;
let root: string;
let gateway: Gateway;

/** The answer's JSON without the echo of the query (which holds the searched word itself). */
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

/** Every search and lookup the task names, none of which may quote what is outside or secret. */
async function expectNothingLeaks(): Promise<void> {
  const texts: string[] = [];
  for (const query of ['OutsideLeak', 'DeepLeak', 'KeyedLeak', 'Leak']) texts.push(await answer('search_symbols', { query }));
  for (const query of [OUTSIDE, KEYWORD, 'outside leak canary', 'private key']) {
    texts.push(await answer('search_code', { query }));
    texts.push(await answer('search', { query }));
  }
  for (const query of [OUTSIDE, KEYWORD, 'Leak']) texts.push(await answer('search_text', { query }));
  // lookups by id or name echo the name asked for: their answers may hold no text of the files
  const named: string[] = [];
  for (const [name, id] of [
    ['OutsideLeak', 'src/leak.ts::OutsideLeak#class'],
    ['DeepLeak', 'src/linked/deep.ts::DeepLeak#class'],
    ['KeyedLeak', 'src/keyed.ts::KeyedLeak#class'],
  ]) {
    named.push(await answer('get_symbol', { symbol_id: id }));
    named.push(await answer('get_symbols', { symbol_ids: [id] }));
    expect(['PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE', 'SYMBOL_NOT_FOUND']).toContain(await codeOf('get_symbol', { symbol_id: id }));
    // by name: the catalog does not know it
    named.push(await answer('find_definition', { symbol: name }));
    expect(await codeOf('find_definition', { symbol: name })).toBe('SYMBOL_NOT_FOUND');
  }
  for (const file of ['src/leak.ts', 'src/linked/deep.ts', 'src/keyed.ts']) texts.push(await answer('get_file_outline', { file }));
  expect(await codeOf('get_file_outline', { file: 'src/leak.ts' })).toBe('PATH_OUTSIDE_WORKSPACE');
  expect(await codeOf('get_file_outline', { file: 'src/linked/deep.ts' })).toBe('PATH_OUTSIDE_WORKSPACE');
  expect(await codeOf('get_file_outline', { file: 'src/keyed.ts' })).toBe('SECRET_FILE');
  for (const text of texts) for (const canary of CANARIES) expect(text).not.toContain(canary);
  for (const text of named) for (const canary of [OUTSIDE, KEYWORD]) expect(text).not.toContain(canary);
  // the gate left them out of the catalog itself, not only out of the answers
  const files = [...(await gateway.workspaceFor(undefined)).catalog.files().keys()];
  expect(files.filter((f) => /leak|keyed|linked/.test(f))).toEqual([]);
}

beforeAll(async () => {
  tmp = tempDir('lspgate-gate-');
  root = path.join(tmp, 'ws');
  fs.cpSync(TS_APP, root, { recursive: true });
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs/guide.md'), '# Guide\n\nHow the shapes are measured.\n');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(outside, 'dir'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'leak.ts'), `/** ${OUTSIDE} outside leak canary */\nexport class OutsideLeak {\n  words = '${OUTSIDE}';\n}\n`);
  fs.writeFileSync(path.join(outside, 'dir/deep.ts'), `/** ${OUTSIDE} */\nexport class DeepLeak {\n  words = '${OUTSIDE}';\n}\n`);
  fs.writeFileSync(path.join(outside, 'notes.md'), `# Notes\n\n${OUTSIDE} outside leak canary\n`);
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  if (tmp) removeDir(tmp);
});

describe('files entering the catalog after the first walk pass the same gate', () => {
  it('a symlink out of the root, a symlinked directory and private keys created later are never answered', async () => {
    // catalog, chunk and search once: the indexes exist before the files appear
    expect(await answer('search_symbols', { query: 'Shape' })).toContain('Shape');
    expect(await answer('search_code', { query: 'shapes measured' })).toContain('docs/guide.md');
    const ws = await gateway.workspaceFor(undefined);
    // the searches answer from the syntax tier as soon as its pass is done: the build (and the
    // watcher it starts) is waited for here
    await ws.catalog.all();
    expect(ws.catalog.watching).toBe(true);

    fs.symlinkSync(path.join(tmp, 'outside/leak.ts'), path.join(root, 'src/leak.ts'));
    fs.symlinkSync(path.join(tmp, 'outside/dir'), path.join(root, 'src/linked'));
    fs.symlinkSync(path.join(tmp, 'outside/notes.md'), path.join(root, 'docs/notes.md'));
    fs.writeFileSync(path.join(root, 'src/keyed.ts'), `export class KeyedLeak {\n  key = \`\n${KEY}\`;\n}\n`);
    fs.writeFileSync(path.join(root, 'docs/keys.md'), `# Keys\n\n${KEY}`);
    // written last: once the watcher has cataloged it, it has seen the others
    fs.writeFileSync(path.join(root, 'src/sentinel.ts'), 'export function sentinelArrived(): number {\n  return 7;\n}\n');
    await waitFor(() => ws.catalog.files().has('src/sentinel.ts'), 'the watcher to catalog src/sentinel.ts');
    await ws.catalog.settled();
    await expectNothingLeaks();

    // refresh by name and of everything: the same gate
    const byName = JSON.parse(await answer('refresh', { paths: ['src/leak.ts', 'src/linked/deep.ts', 'src/keyed.ts', 'docs/keys.md'] })) as {
      refreshed: string[];
    };
    expect(byName.refreshed).toEqual([]);
    await answer('refresh', {});
    await expectNothingLeaks();
    // what is inside and ordinary still enters
    expect(await answer('search_symbols', { query: 'sentinelArrived' })).toContain('src/sentinel.ts');
  }, 240_000);

  it('a cataloged file the gate leaves out later (ignored since) leaves the catalog, by the watcher and by refresh', async () => {
    const ws = await gateway.workspaceFor(undefined);
    expect(ws.catalog.files().has('src/util/math.ts')).toBe(true);
    fs.writeFileSync(path.join(root, '.gitignore'), 'src/sentinel.ts\nsrc/util/math.ts\n');
    fs.appendFileSync(path.join(root, 'src/sentinel.ts'), '// touched after .gitignore\n');
    await waitFor(() => !ws.catalog.files().has('src/sentinel.ts'), 'the watcher to drop the newly ignored src/sentinel.ts');
    // the .gitignore is read again; refresh by name judges math.ts as the walk now would
    await answer('refresh', { paths: ['src/util/math.ts'] });
    expect(ws.catalog.files().has('src/util/math.ts')).toBe(false);
    // asked for by name it still answers (the walk's rules leave it out of the index only)
    expect(await codeOf('get_file_outline', { file: 'src/util/math.ts' })).toBe('none');
    expect(ws.catalog.files().has('src/util/math.ts')).toBe(false);
  }, 120_000);
});
