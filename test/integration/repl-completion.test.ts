/**
 * REPL tab completion, in-process on fixtures/ts-app with the real operation table and server:
 * command names, `--field` names from the operation's schema, and symbol names from the catalog
 * once a command has built it, or at the first Tab when a finished build is stored.
 */
import { PassThrough } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ReplHandle, startRepl } from '../../src/frontends/repl/repl.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { removeDir, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

/** Bound for tests that start a real language server (the CI machine is shared). */
const SERVER_TEST_TIMEOUT_MS = 150_000;

let gateway: Gateway;
let repl: ReplHandle;
let input: PassThrough;
let out = '';
let cacheDir: string;

type Completer = (line: string, cb: (err: Error | null, r: [string[], string]) => void) => void;

function complete(line: string, on: ReplHandle = repl): Promise<[string[], string]> {
  const completer = (on.server as unknown as { completer: Completer }).completer;
  return new Promise((resolve, reject) => completer.call(on.server, line, (err, r) => (err ? reject(err) : resolve(r))));
}

beforeAll(async () => {
  cacheDir = tempDir();
  gateway = await Gateway.create({ root: TS_APP, cacheDir });
  input = new PassThrough();
  const output = new PassThrough();
  output.setEncoding('utf8').on('data', (d: string) => (out += d));
  repl = startRepl(gateway, { input, output, terminal: false });
});

afterAll(async () => {
  input?.end();
  await repl?.closed;
  await gateway?.close();
  removeDir(cacheDir);
});

describe('REPL tab completion', () => {
  it('answers a mistyped command with the one it was meant to be', async () => {
    input.write('.serch formatName\n');
    await waitFor(() => out.includes('unknown command .serch'), 'the unknown-command answer', 30_000);
    expect(out).toContain('unknown command .serch; did you mean .search?');
  });

  it('completes command names generated from the operation table', async () => {
    const [hits] = await complete('.de');
    expect(hits).toContain('def');
  });

  it('completes --field names of the command from its input schema', async () => {
    const [hits, word] = await complete('.def --sym');
    expect(word).toBe('--sym');
    expect(hits.sort()).toEqual(['--symbol', '--symbol_id']);
  });

  it(
    'completes symbol names from the catalog once it has been built',
    async () => {
      // Nothing cataloged yet: no guesses.
      expect((await complete('.def formatN'))[0]).toEqual([]);
      input.write('.def formatName\n');
      await waitFor(() => out.includes('src/util/strings.ts'), 'the .def answer', 60_000);
      let hits: string[] = [];
      for (let i = 0; i < 100 && !hits.includes('formatName'); i++) {
        hits = (await complete('.refs formatN'))[0];
        if (!hits.includes('formatName')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(hits).toContain('formatName');
      const qualified = (await complete('.fn Registry.'))[0];
      expect(qualified).toContain('Registry.all');
      expect(qualified.every((n) => n.startsWith('Registry.'))).toBe(true);
      // `lines`, a const inside buildReport's body, is cataloged (as the server lists it) but no name to type
      const catalog = await (await gateway.workspaceFor(undefined)).catalog.all!();
      expect(catalog.some((s) => s.name === 'lines' && s.parent !== undefined)).toBe(true);
      expect((await complete('.def line'))[0]).toEqual([]);
      expect((await complete('.def buildRep'))[0]).toContain('buildReport');
      // a file's path completes too (the commands that take a file: .outline src/util/str + Tab)
      expect((await complete('.outline src/util/str'))[0]).toContain('src/util/strings.ts');
    },
    SERVER_TEST_TIMEOUT_MS,
  );
});

describe('REPL tab completion on a workspace whose catalog is stored', () => {
  it(
    'completes symbol names and paths at the first Tab, before any command',
    async () => {
      const dir = tempDir();
      try {
        const first = await Gateway.create({ root: TS_APP, cacheDir: dir });
        await first.run('index_folder', { path: TS_APP });
        await first.close();
        const again = await Gateway.create({ root: TS_APP, cacheDir: dir });
        const keys = new PassThrough();
        const handle = startRepl(again, { input: keys, output: new PassThrough(), terminal: false });
        try {
          expect((await complete('.def formatN', handle))[0]).toContain('formatName');
          expect((await complete('.outline src/util/str', handle))[0]).toContain('src/util/strings.ts');
        } finally {
          keys.end();
          await handle.closed;
          await again.close();
        }
      } finally {
        removeDir(dir);
      }
    },
    SERVER_TEST_TIMEOUT_MS,
  );
});
