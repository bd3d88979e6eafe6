/**
 * Thin clients of the daemon in tests: a daemon started in the foreground with LSPGATE_LOG=info
 * (its stderr says which calls took the thin path: `one-shot <op>`, `hosting its mcp front-end`),
 * and `lspgate mcp` processes driven by the real MCP SDK client.
 */
import { existsSync } from 'node:fs';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { DaemonWorld } from './daemon.js';
import { childEnv, CLI, type Spawned, spawnNode, waitFor } from './spawn.js';

export async function startLoggingDaemon(w: DaemonWorld): Promise<Spawned> {
  const d = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_LOG: 'info' } });
  await waitFor(() => existsSync(w.socket), 'the daemon socket');
  return d;
}

export interface McpThin {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
}

export async function mcpThin(w: DaemonWorld, root: string, args: string[] = []): Promise<McpThin> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--tools', 'all', '--root', root, ...args],
    env: childEnv({ LSPGATE_CACHE_DIR: w.cacheDir, ...w.env }),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'lspgate-thin-tests', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`lspgate mcp did not connect (${(e as Error).message}); its stderr: ${err}`, { cause: e });
  }
  return { client, transport, pid: transport.pid!, stderr: () => err };
}

export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
