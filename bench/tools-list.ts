/**
 * What `tools/list` costs an agent's context per tool profile (`lspgate mcp --tools …`): the
 * result of a real tools/list request from the MCP client, in-process, as compact JSON; tokens ≈
 * bytes/4 like every figure here. No language server starts.
 *   node dist/bench/tools-list.js
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

import { createMcpServer } from '../src/frontends/mcp/server.js';
import { Gateway } from '../src/gateway/gateway.js';
import { profileTools, selectTools } from '../src/operations/profiles.js';

export interface ProfileSize {
  profile: string;
  tools: number;
  bytes: number;
  tokens: number;
}

async function listSize(gateway: Gateway, tools: ReadonlySet<string>): Promise<{ tools: number; bytes: number }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(gateway, tools);
  await server.connect(serverSide);
  const client = new Client({ name: 'lspgate-bench', version: '0.0.0' });
  await client.connect(clientSide);
  try {
    const r = await client.listTools();
    return { tools: r.tools.length, bytes: Buffer.byteLength(JSON.stringify(r)) };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function toolsListSizes(gateway: Gateway): Promise<ProfileSize[]> {
  const ops = gateway.operations();
  const out: ProfileSize[] = [];
  for (const profile of ['core', 'all'] as const) {
    const s = await listSize(gateway, selectTools(profile, ops));
    out.push({ profile, ...s, tokens: Math.ceil(s.bytes / 4) });
  }
  // One tool alone: what each further tool costs on average is (all − core) / (count difference).
  const one = await listSize(gateway, selectTools(['get_context'], ops));
  out.push({ profile: 'get_context alone', ...one, tokens: Math.ceil(one.bytes / 4) });
  return out;
}

export function toolsListTable(rows: ProfileSize[]): string {
  const lines = ['| Profile | tools | tools/list |', '|---|---:|---:|'];
  for (const r of rows) lines.push(`| \`${r.profile}\` | ${r.tools} | ~${r.tokens.toLocaleString('en')} tokens |`);
  return lines.join('\n') + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-tools-'));
  const gateway = await Gateway.create({ root, cacheDir: path.join(root, '.cache') });
  try {
    process.stdout.write(`tools/list per profile (core = ${profileTools('core', gateway.operations()).join(', ')})\n\n${toolsListTable(await toolsListSizes(gateway))}`);
  } finally {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
