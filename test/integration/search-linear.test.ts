/**
 * No search_text regex and no file_pattern glob may pin the event loop. A
 * spawned `lspgate sidecar` on a workspace holding long lines of `a`s gets each pattern that froze
 * V8's backtracking engine, together with a cheap call: both must answer (a frozen process answers
 * neither, and the test runs into its timeout).
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, type MessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { assertBuilt, CLI, removeDir, type Spawned, spawnNode, tempDir } from '../helpers/spawn.js';

let tmp: string;
let spawned: Spawned;
let conn: MessageConnection;

beforeAll(() => {
  assertBuilt();
  tmp = tempDir();
  const root = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(root, 'src/deep/er/still/deeper'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"ws"}\n');
  const a = 'a'.repeat(3000);
  fs.writeFileSync(path.join(root, 'src/long.txt'), `${a}\n${a}\n${'a'.repeat(200)}Q\n`);
  fs.writeFileSync(path.join(root, 'src/deep/er/still/deeper/x.ts'), 'export const hit = 1;\n');
  fs.writeFileSync(path.join(root, `src/${'a'.repeat(120)}.ts`), 'export const named = 2;\n');
  spawned = spawnNode(CLI, ['sidecar', '--root', root], { cacheDir: path.join(tmp, 'cache'), cwd: tmp });
  conn = createMessageConnection(new StreamMessageReader(spawned.child.stdout!), new StreamMessageWriter(spawned.child.stdin!));
  conn.listen();
});

afterAll(async () => {
  conn?.dispose();
  spawned?.child.kill('SIGKILL');
  await spawned?.exited;
  removeDir(tmp);
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (e) {
    if (e instanceof ResponseError) return (e.data as { code: string }).code;
    throw e;
  }
}

describe('patterns that cannot freeze the process', () => {
  it.each(['((a+))+X', '(a|aa)+X', 'a*a*a*a*a*a*Q', '(x+x+)+y', '(a*)*b'])('regex %s answers, and another call answers beside it', async (query) => {
    const [search, other] = await Promise.all([
      conn.sendRequest('search_text', { query, regex: true, output_format: 'json' }) as Promise<{ matches: unknown[] }>,
      conn.sendRequest('list_workspaces', { output_format: 'json' }),
    ]);
    expect(other).toBeDefined();
    // a*a*a*a*a*a*Q is the one with a real match: the line ending in Q
    expect(search.matches.length).toBe(query === 'a*a*a*a*a*a*Q' ? 1 : 0);
  });

  it.each(['*/*/*/*/**/**/**/**/**/**/**/**/**/**/x.ts', '*a*a*a*a*a*a*a*a*b.ts'])(
    'glob %s answers in search_symbols and search_text',
    async (file_pattern) => {
      const symbols = (await conn.sendRequest('search_symbols', { query: 'hit', file_pattern, output_format: 'json' })) as { results: { name: string }[] };
      const text = (await conn.sendRequest('search_text', { query: 'export', file_pattern, output_format: 'json' })) as { matches: unknown[] };
      const expected = file_pattern.endsWith('x.ts') ? ['hit'] : [];
      expect(symbols.results.map((s) => s.name)).toEqual(expected);
      expect(text.matches.length).toBe(expected.length);
    },
  );

  it.each([
    ['search_text', { query: 'x', file_pattern: '[z-a]' }],
    ['search_symbols', { query: 'x', file_pattern: '[z-a]' }],
    ['search_text', { query: '(a)\\1', regex: true }],
    ['search_text', { query: '(?=a)', regex: true }],
  ] as const)('%s %j → INVALID_INPUT', async (op, input) => {
    expect(await codeOf(conn.sendRequest(op, input))).toBe('INVALID_INPUT');
  });
});
