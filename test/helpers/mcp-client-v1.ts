/**
 * The 1.x TypeScript SDK client (`@modelcontextprotocol/sdk`), which most MCP hosts and the MCP
 * Inspector still run. It validates `structuredContent` against the tool's `outputSchema` once
 * it has seen `tools/list`, also on `isError` results: what lspgate answers must pass it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { childEnv } from './spawn.js';

export type V1Client = Client;

function newClient(): Client {
  return new Client({ name: 'lspgate-tests-v1', version: '0.0.0' });
}

export async function connectStdioV1(script: string, args: string[], opts: { cacheDir: string }): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...args],
    env: childEnv({ LSPGATE_CACHE_DIR: opts.cacheDir }),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = newClient();
  await client.connect(transport);
  return { client, stderr: () => err };
}

export async function connectHttpV1(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = newClient();
  await client.connect(transport);
  return client;
}
