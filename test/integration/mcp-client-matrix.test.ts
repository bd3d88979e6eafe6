/**
 * Every tool through the clients people run: the 1.x TypeScript SDK client (which validates
 * structured results against output schemas, also on error results, once it has listed the tools)
 * and the 2.x client, each over stdio and Streamable HTTP against a spawned `lspgate mcp` on a copy
 * of fixtures/ts-app. Each tool is called once with valid input and once per error kind a caller
 * can cause (test/helpers/mcp-client-cases.mjs); the client must see a success with structured
 * content, or an isError result whose code is the expected one. One HTTP server serves both
 * clients; stdio is one process per client (a stdio server has one peer).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { operations } from '../../src/operations/registry.js';
import { connectHttp, connectStdio, errorOf } from '../helpers/mcp-client.js';
import { type ClientCall, clientMatrix } from '../helpers/mcp-client-cases.mjs';
import { connectHttpV1, connectStdioV1 } from '../helpers/mcp-client-v1.js';
import { makeMatrixWorkspace, type MatrixWorkspace } from '../helpers/mcp-matrix-cases.mjs';
import { assertBuilt, CLI, removeDir, type Spawned, spawnNode, tempDir, waitFor } from '../helpers/spawn.js';

/** Bound for a whole client run: it starts a real tsserver on a shared 2-core machine. */
const RUN_TIMEOUT_MS = 240_000;
/** Every operation, those listed only when named included. */
const TOOLS = operations.map((o) => o.name).join(',');
const TOKEN = 'matrix-token-0123456789abcdef';

interface CallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: unknown;
}
/** The common face of both SDKs' clients that the matrix uses. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

let dir: string;
let ws: MatrixWorkspace;
let http: Spawned;
let httpUrl: string;
let calls: ClientCall[];

beforeAll(async () => {
  assertBuilt();
  dir = tempDir('lspgate-matrix-');
  ws = makeMatrixWorkspace(dir);
  calls = clientMatrix(operations, ws);
  // index_folder / index_repo open folders beside the workspace: the user allows them, as anyone
  // indexing a folder outside the --root must (the servers spawned below inherit it).
  process.env.LSPGATE_ALLOWED_ROOTS = dir;
  http = spawnNode(CLI, ['mcp', '--http', '--port', '0', '--root', ws.root, '--tools', TOOLS], {
    cacheDir: path.join(dir, 'cache-http'),
    env: { LSPGATE_TOKEN: TOKEN },
  });
  await waitFor(() => /listening on (http:\/\/\S+)/.test(http.stderr()), 'the HTTP listening line');
  httpUrl = /listening on (http:\/\/\S+)/.exec(http.stderr())![1]!;
});

afterAll(async () => {
  delete process.env.LSPGATE_ALLOWED_ROOTS;
  http?.child.kill('SIGTERM');
  await http?.exited;
  if (dir) removeDir(dir);
});

/** What the client saw for one call, compared with what was expected; '' when they agree. */
async function outcome(client: AnyClient, call: ClientCall): Promise<string> {
  const label = `${call.tool} ${JSON.stringify(call.args)}`;
  let r: CallResult;
  try {
    r = (await client.callTool({ name: call.tool, arguments: call.args })) as CallResult;
  } catch (e) {
    return `${label}: the client threw ${(e as Error).message.slice(0, 200)}`;
  }
  if (call.code === undefined) {
    if (r.isError) return `${label}: expected success, got ${JSON.stringify(r.content).slice(0, 200)}`;
    return typeof r.structuredContent === 'object' ? '' : `${label}: success without structuredContent`;
  }
  if (!r.isError) return `${label}: expected ${call.code}, got a success`;
  const code = errorOf(r).code;
  return code === call.code ? '' : `${label}: expected ${call.code}, got ${code}`;
}

async function runMatrix(client: AnyClient): Promise<void> {
  try {
    // listTools first: it is what makes the 1.x client validate structured results.
    const listed = new Set((await client.listTools()).tools.map((t) => t.name));
    const called = new Set(calls.map((c) => c.tool));
    expect([...listed].sort()).toEqual([...called].sort());
    const failures: string[] = [];
    for (const call of calls) {
      const f = await outcome(client, call);
      if (f) failures.push(f);
    }
    expect(failures).toEqual([]);
    expect(calls.filter((c) => c.code !== undefined).length).toBeGreaterThan(calls.filter((c) => c.code === undefined).length);
  } finally {
    await client.close();
  }
}

describe('MCP client matrix: every tool, valid and erroneous, per client and transport', () => {
  it(
    '1.x SDK client over stdio',
    async () => {
      const { client } = await connectStdioV1(CLI, ['mcp', '--root', ws.root, '--tools', TOOLS], { cacheDir: path.join(dir, 'cache-stdio-v1') });
      await runMatrix(client);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    '2.x SDK client over stdio',
    async () => {
      const { client } = await connectStdio(CLI, ['mcp', '--root', ws.root, '--tools', TOOLS], { cacheDir: path.join(dir, 'cache-stdio-v2') });
      await runMatrix(client);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    '1.x SDK client over Streamable HTTP',
    async () => {
      await runMatrix(await connectHttpV1(httpUrl, TOKEN));
    },
    RUN_TIMEOUT_MS,
  );

  it(
    '2.x SDK client over Streamable HTTP',
    async () => {
      await runMatrix(await connectHttp(httpUrl, TOKEN));
    },
    RUN_TIMEOUT_MS,
  );

  it('covers every error code a caller can cause with these tools', () => {
    const codes = new Set(calls.map((c) => c.code).filter((c) => c !== undefined));
    for (const code of [
      'INVALID_INPUT',
      'SYMBOL_NOT_FOUND',
      'AMBIGUOUS_SYMBOL',
      'FILE_NOT_FOUND',
      'PATH_OUTSIDE_WORKSPACE',
      'SECRET_FILE',
      'UNSUPPORTED_LANGUAGE',
      'WORKSPACE_NOT_FOUND',
    ]) {
      expect(codes).toContain(code);
    }
    expect(readFileSync(path.join(ws.root, '.env'), 'utf8')).toContain('never-returned');
  });
});
