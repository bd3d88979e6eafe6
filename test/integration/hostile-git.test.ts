/**
 * A repository whose git config, attributes, include file, hooks and submodule name programs
 * (test/helpers/hostile-git.ts) through the front-ends as a user starts them: the one-shot CLI and
 * `lspgate mcp` over stdio (in-process), and `lspgate mcp` and `lspgate sidecar` as thin clients of
 * one daemon (a private socket directory). Each front-end gets its own copy of the repository. After
 * get_diagnostics on changed files, changed_symbols, detect_drift, verify_citation at a commit,
 * search_code, the review_change prompt (MCP) and index_repo of a hostile clone source, every call
 * answered and none of the planted programs ran.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageConnection } from 'vscode-jsonrpc/node';

import { type DaemonWorld, daemonWorld, sidecarClient, stopDaemon } from '../helpers/daemon.js';
import { cliArgs } from '../helpers/hostile-corpus.js';
import { buildHostileGit, gitCalls as calls, type HostileGit } from '../helpers/hostile-git.js';
import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, runCli, type Spawned } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

type FrontEnd = 'cli' | 'mcp' | 'mcp-daemon' | 'sidecar';
const FRONT_ENDS: FrontEnd[] = ['cli', 'mcp', 'mcp-daemon', 'sidecar'];

let tmp: string;
const repos = {} as Record<FrontEnd, HostileGit>;
let stdio: StdioConnection;
let world: DaemonWorld;
let daemon: Spawned;
let thin: McpThin;
let sidecar: { proc: Spawned; conn: MessageConnection };

async function viaMcp(client: Client, op: string, input: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name: op, arguments: input }, { timeout: 170_000 });
  expect(r.isError, `${op}: ${textOf(r)}`).not.toBe(true);
  return textOf(r);
}

async function reviewChange(client: Client): Promise<string> {
  const p = await client.getPrompt({ name: 'review_change', arguments: {} }, { timeout: 170_000 });
  const text = p.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
  // the diff is there: git ran, only as a reader
  expect(text).toContain('+  return 10;');
  return text;
}

beforeAll(async () => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-hostile-git-')));
  for (const fe of FRONT_ENDS) repos[fe] = buildHostileGit(path.join(tmp, fe));
  stdio = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', repos.mcp.root], { cacheDir: path.join(tmp, 'cache-mcp'), cwd: tmp });
  world = daemonWorld();
  daemon = await startLoggingDaemon(world);
  thin = await mcpThin(world, repos['mcp-daemon'].root);
  sidecar = sidecarClient(world, repos.sidecar.root);
  await sidecar.conn.sendRequest('initialize', {});
}, 120_000);

afterAll(async () => {
  await stdio?.client.close();
  await thin?.client.close();
  if (sidecar) {
    await sidecar.conn.sendRequest('shutdown').catch(() => undefined);
    sidecar.conn.dispose();
    sidecar.proc.child.kill('SIGTERM');
    await sidecar.proc.exited;
  }
  if (world) await stopDaemon(world);
  if (daemon) {
    const bound = setTimeout(() => daemon.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  if (world) fs.rmSync(world.base, { recursive: true, force: true });
}, 60_000);

describe('a hostile repository: git runs nothing it names', () => {
  it('one-shot CLI', async () => {
    const h = repos.cli;
    for (const [op, input] of calls(h)) {
      const r = await runCli([op, '--root', h.root, '--json', ...cliArgs(input)], { cacheDir: path.join(tmp, 'cache-cli'), cwd: tmp });
      expect(r.code, `${op}: ${r.stderr}`).toBe(0);
      expect(h.markers(), `after ${op}`).toEqual([]);
    }
  }, 600_000);

  it('MCP over stdio (lspgate mcp)', async () => {
    const h = repos.mcp;
    for (const [op, input] of calls(h)) {
      await viaMcp(stdio.client, op, input);
      expect(h.markers(), `after ${op}`).toEqual([]);
    }
    await reviewChange(stdio.client);
    expect(h.markers(), 'after the review_change prompt').toEqual([]);
  }, 600_000);

  it('MCP through the daemon (lspgate mcp, thin client)', async () => {
    const h = repos['mcp-daemon'];
    for (const [op, input] of calls(h)) {
      await viaMcp(thin.client, op, input);
      expect(h.markers(), `after ${op}`).toEqual([]);
    }
    await reviewChange(thin.client);
    expect(h.markers(), 'after the review_change prompt').toEqual([]);
  }, 600_000);

  it('the sidecar through the daemon', async () => {
    const h = repos.sidecar;
    for (const [op, input] of calls(h)) {
      await sidecar.conn.sendRequest(op, input);
      expect(h.markers(), `after ${op}`).toEqual([]);
    }
  }, 600_000);
});
