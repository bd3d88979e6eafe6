/**
 * The front-ends `npm run redteam` drives, each as a user starts it: spawned `lspgate mcp` over
 * stdio and `lspgate mcp --http` (the real MCP SDK client), spawned `lspgate sidecar` (a
 * vscode-jsonrpc client, Content-Length framing) and the one-shot CLI (one process per row).
 * Every call answers an Outcome: the lspgate error code, or 'safe answer', and all the text the
 * client received (for the canary check).
 */
import fs from 'node:fs';

import type { Client } from '@modelcontextprotocol/client';
import { createMessageConnection, type MessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { ERROR_CODES } from '../src/errors/errors.js';
import { cliArgs } from '../test/helpers/hostile-corpus.js';
import { connectHttp, connectStdio, type StdioConnection, textOf } from '../test/helpers/mcp-client.js';
import { CLI, runCli, type Spawned, spawnNode, waitFor } from '../test/helpers/spawn.js';

export const SAFE = 'safe answer';

export interface Outcome {
  outcome: string;
  text: string;
}

export interface Frontend {
  name: string;
  /** pid of the long-lived process (undefined for the CLI). */
  pid?: number;
  call(op: string, input: Record<string, unknown>): Promise<Outcome>;
  stderr(): string;
  close(): Promise<void>;
}

const CODE_RE = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`);

/** The lspgate code named in an error text; an MCP "tool not found" is UNKNOWN_OPERATION. */
export function codeIn(text: string): string {
  const m = CODE_RE.exec(text);
  if (m) return m[1]!;
  if (/Tool \S+ not found|unknown (tool|operation|command)/i.test(text)) return 'UNKNOWN_OPERATION';
  // a transport-level refusal (e.g. the HTTP front-end's 413 for a body over its limit) is a JSON-RPC error code
  const rpc = /"error":\{"code":(-\d+)/.exec(text);
  if (rpc) return `JSON-RPC ${rpc[1]}${/\b413\b|too large/i.test(text) ? ' (HTTP 413)' : ''}`;
  return `uncoded: ${text.slice(0, 60).replace(/\s+/g, ' ')}`;
}

async function mcpCall(client: Client, op: string, input: Record<string, unknown>): Promise<Outcome> {
  try {
    const r = await client.callTool({ name: op, arguments: input }, { timeout: 120_000 });
    const text = textOf(r) + JSON.stringify(r.structuredContent ?? {});
    return { outcome: r.isError === true ? codeIn(text) : SAFE, text };
  } catch (e) {
    const text = String((e as Error).message);
    return { outcome: codeIn(text), text };
  }
}

export async function mcpStdio(root: string, cacheDir: string, cwd: string): Promise<Frontend & { conn: StdioConnection }> {
  const conn = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', root], { cacheDir, cwd });
  return {
    name: 'MCP stdio',
    pid: conn.pid,
    conn,
    call: (op, input) => mcpCall(conn.client, op, input),
    stderr: conn.stderr,
    close: () => conn.client.close(),
  };
}

async function stopProcess(p: Spawned): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const bound = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
  await p.exited;
  clearTimeout(bound);
}

export async function mcpHttp(root: string, cacheDir: string, cwd: string): Promise<Frontend & { url: string; token: string }> {
  const p = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', root], { cacheDir, cwd });
  await waitFor(() => /bearer token written to (\S+)/.test(p.stderr()) && /listening on (http:\/\/\S+)/.test(p.stderr()), 'the HTTP listening line', 60_000);
  const url = /listening on (http:\/\/\S+)/.exec(p.stderr())![1]!;
  const token = fs.readFileSync(/bearer token written to (\S+)/.exec(p.stderr())![1]!, 'utf8').trim();
  const client = await connectHttp(url, token);
  return {
    name: 'MCP HTTP',
    pid: p.child.pid,
    url,
    token,
    call: (op, input) => mcpCall(client, op, input),
    stderr: p.stderr,
    close: async () => {
      await client.close().catch(() => undefined);
      await stopProcess(p);
    },
  };
}

async function sidecarCall(conn: MessageConnection, op: string, input: Record<string, unknown>): Promise<Outcome> {
  try {
    const result = await conn.sendRequest(op, input);
    return { outcome: SAFE, text: JSON.stringify(result) };
  } catch (e) {
    if (!(e instanceof ResponseError)) return { outcome: codeIn(String(e)), text: String(e) };
    const text = JSON.stringify({ code: e.code, message: e.message, data: e.data });
    const data = e.data as { code?: unknown } | undefined;
    if (typeof data?.code === 'string') return { outcome: data.code, text };
    return { outcome: e.code === -32601 ? 'UNKNOWN_OPERATION' : codeIn(text), text };
  }
}

export function sidecar(root: string, cacheDir: string, cwd: string): Frontend {
  const p = spawnNode(CLI, ['sidecar', '--root', root], { cacheDir, cwd });
  const conn = createMessageConnection(new StreamMessageReader(p.child.stdout!), new StreamMessageWriter(p.child.stdin!));
  conn.listen();
  return {
    name: 'sidecar',
    pid: p.child.pid,
    call: (op, input) => sidecarCall(conn, op, input),
    stderr: p.stderr,
    close: async () => {
      conn.dispose();
      p.child.stdin?.end();
      await stopProcess(p);
    },
  };
}

export function oneShotCli(root: string, cacheDir: string, cwd: string): Frontend {
  let errs = '';
  return {
    name: 'CLI',
    async call(op, input) {
      const r = await runCli([op, '--root', root, '--json', ...cliArgs(input)], { cacheDir, cwd });
      errs += r.stderr;
      const text = r.stdout + r.stderr;
      if (r.code === 0) return { outcome: SAFE, text };
      return { outcome: op === 'rm_rf_everything' && /rm_rf_everything/.test(r.stderr) ? 'UNKNOWN_OPERATION' : codeIn(r.stderr), text };
    },
    stderr: () => errs,
    close: async () => undefined,
  };
}
