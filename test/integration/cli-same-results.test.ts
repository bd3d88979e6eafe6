/**
 * The same call through every front-end gives the same structured result: find_definition of
 * `formatName` on fixtures/ts-app (declared at src/util/strings.ts:7:17, see its EXPECTED.md)
 * through a spawned `lspgate mcp` (stdio), `lspgate sidecar`, the one-shot `lspgate find_definition
 * --json` and `lspgate repl`, each with its own real typescript-language-server. Only the timing
 * and the persisted running total may differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { connectStdio } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, runCli, spawnNode, tempDir, TS_APP } from '../helpers/spawn.js';

const CALL = { symbol: 'formatName' };
type Result = Record<string, unknown> & { _meta: Record<string, unknown>; definitions: { file: string; line: number; column: number; name: string }[] };

function comparable(r: Result): Result {
  const { timing_ms: _t, total_tokens_saved: _s, ...meta } = r._meta;
  return { ...r, _meta: meta };
}

const results: Record<string, Result> = {};
/** Bound for tests that start a real language server in a spawned lspgate (the CI machine is shared). */
const SERVER_TEST_TIMEOUT_MS = 150_000;

let cacheDir: string;

beforeAll(() => {
  assertBuilt();
  cacheDir = tempDir();
});

afterAll(() => removeDir(cacheDir));

describe('find_definition through every front-end', () => {
  it(
    'MCP over stdio (lspgate mcp)',
    async () => {
      const conn = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', TS_APP], { cacheDir });
      try {
        const { tools } = await conn.client.listTools();
        expect(tools.map((t) => t.name)).toContain('find_definition');
        const r = await conn.client.callTool({ name: 'find_definition', arguments: CALL });
        expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
        results.mcp = r.structuredContent as Result;
      } finally {
        await conn.client.close();
      }
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'JSON-RPC sidecar (lspgate sidecar)',
    async () => {
      const p = spawnNode(CLI, ['sidecar', '--root', TS_APP], { cacheDir });
      const conn = createMessageConnection(new StreamMessageReader(p.child.stdout!), new StreamMessageWriter(p.child.stdin!));
      conn.listen();
      try {
        const init = (await conn.sendRequest('initialize', {})) as { operations: { name: string }[] };
        expect(init.operations.map((o) => o.name)).toContain('find_definition');
        results.sidecar = (await conn.sendRequest('find_definition', CALL)) as Result;
        await conn.sendRequest('shutdown');
        await conn.sendNotification('exit');
        expect((await p.exited).code).toBe(0);
      } finally {
        conn.dispose();
        if (p.child.exitCode === null) p.child.kill('SIGTERM');
      }
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'one-shot CLI (lspgate find_definition --json)',
    async () => {
      const { code, stdout, stderr } = await runCli(['find_definition', 'formatName', '--root', TS_APP, '--json'], { cacheDir });
      expect(code, stderr).toBe(0);
      results.cli = JSON.parse(stdout) as Result;
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'REPL (lspgate repl, .def formatName --json)',
    async () => {
      const p = spawnNode(CLI, ['repl', '--root', TS_APP], { cacheDir });
      p.child.stdin!.end('.def formatName --json\n');
      const { code } = await p.exited;
      expect(code, p.stderr()).toBe(0);
      results.repl = JSON.parse(p.stdout()) as Result;
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('agree with each other and with the fixture', () => {
    expect(Object.keys(results).sort()).toEqual(['cli', 'mcp', 'repl', 'sidecar']);
    const mcp = results.mcp!;
    expect(mcp.definitions).toHaveLength(1);
    expect(mcp.definitions[0]).toMatchObject({ name: 'formatName', file: 'src/util/strings.ts', line: 7, column: 17 });
    expect(mcp._meta).toMatchObject({ workspace: TS_APP, truncated: false });
    for (const name of ['sidecar', 'cli', 'repl']) expect(comparable(results[name]!), name).toEqual(comparable(mcp));
  });
});
