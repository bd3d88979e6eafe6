/**
 * The hostile-input corpus (test/helpers/hostile-corpus.ts) through the front-ends as a user
 * starts them: `lspgate mcp` over stdio and `lspgate mcp --http` (both spawned, a real MCP SDK
 * client each), and the one-shot CLI (spawned per row). One process per long-lived front-end is
 * shared by every row. Each row answers its code (or a safe result), neither canary appears in
 * any output, and the process still answers afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  buildHostileWorkspace,
  cliArgs,
  cliCanCarry,
  hostileRows,
  type HostileWorkspace,
  OUTSIDE_CANARY,
  type Row,
  SECRET_CANARY,
} from '../helpers/hostile-corpus.js';
import { connectHttp, connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, runCli, type Spawned, spawnNode, waitFor } from '../helpers/spawn.js';

let tmp: string;
const w: HostileWorkspace = { root: '', outside: '' };
const rows = hostileRows(w);
const seen: string[] = [];
let stdio: StdioConnection;
let http: Spawned;
let httpClient: Client;

// Rows answering SYMBOL_NOT_FOUND need a whole catalog in each spawned process (hostile-input.test.ts
// proves them in-process); NUL bytes cannot be written into argv, and the CLI reads every value as
// text, so the wrong-type rows are the MCP clients' to prove.
const spawnedRows = rows.filter((r) => r.code !== 'SYMBOL_NOT_FOUND');
const cliRows = spawnedRows.filter(cliCanCarry);

async function viaMcp(client: Client, row: Row): Promise<void> {
  let text: string;
  let isError: boolean;
  try {
    const r = await client.callTool({ name: row.op, arguments: row.input() });
    text = textOf(r) + JSON.stringify(r.structuredContent ?? {});
    isError = r.isError === true;
  } catch (e) {
    text = String((e as Error).message);
    isError = true;
  }
  seen.push(text);
  if (row.code === 'none') expect(isError, text).toBe(false);
  else {
    expect(isError).toBe(true);
    if (row.code === 'UNKNOWN_OPERATION') expect(text).toMatch(/UNKNOWN_OPERATION|rm_rf_everything not found/);
    else expect(text).toContain(row.code);
  }
}

beforeAll(async () => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-')));
  buildHostileWorkspace(tmp, w);
  stdio = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', w.root], { cacheDir: path.join(tmp, 'cache-stdio'), cwd: tmp });
  http = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', w.root], { cacheDir: path.join(tmp, 'cache-http'), cwd: tmp });
  await waitFor(() => /bearer token written to (\S+)/.test(http.stderr()), 'the token file line on stderr');
  const url = /listening on (http:\/\/\S+)/.exec(http.stderr())![1]!;
  const token = fs.readFileSync(/bearer token written to (\S+)/.exec(http.stderr())![1]!, 'utf8').trim();
  httpClient = await connectHttp(url, token);
}, 60_000);

afterAll(async () => {
  await stdio?.client.close();
  await httpClient?.close();
  if (http) {
    http.child.kill('SIGTERM');
    const bound = setTimeout(() => http.child.kill('SIGKILL'), 20_000);
    await http.exited;
    clearTimeout(bound);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('hostile input corpus through spawned front-ends', () => {
  it.each(spawnedRows)('MCP stdio (lspgate mcp): $what → $code', async (row) => {
    await viaMcp(stdio.client, row);
  });

  it.each(spawnedRows)('MCP HTTP (lspgate mcp --http): $what → $code', async (row) => {
    await viaMcp(httpClient, row);
  });

  it.each(cliRows)('one-shot CLI: $what → $code', async (row) => {
    const { code, stdout, stderr } = await runCli([row.op, '--root', w.root, '--json', ...cliArgs(row.input())], {
      cacheDir: path.join(tmp, 'cache-cli'),
      cwd: tmp,
    });
    seen.push(stdout, stderr);
    if (row.code === 'none') expect(code, stderr).toBe(0);
    else {
      expect(code).not.toBe(0);
      expect(stderr).toContain(row.code === 'UNKNOWN_OPERATION' ? 'rm_rf_everything' : row.code);
    }
  });

  it('both MCP processes still answer after the corpus', async () => {
    for (const client of [stdio.client, httpClient]) {
      const r = await client.callTool({ name: 'get_file_tree', arguments: {} });
      expect(r.isError).not.toBe(true);
      seen.push(textOf(r));
    }
    expect(http.child.exitCode).toBe(null);
  });

  it('no output of any front-end contained the outside canary or a secret', () => {
    expect(seen.length).toBeGreaterThan(spawnedRows.length * 2 + cliRows.length);
    for (const s of seen) {
      expect(s).not.toContain(OUTSIDE_CANARY);
      expect(s).not.toContain(SECRET_CANARY);
    }
    expect(stdio.stderr()).not.toContain(SECRET_CANARY);
    expect(http.stderr()).not.toContain(SECRET_CANARY);
  });
});
