/**
 * What `tools/list` costs an agent's context per tool profile (`lspgate mcp --tools …`): the
 * result of a real tools/list request from the MCP client, in-process, as compact JSON, with and
 * without the output schemas (a client that ignores them still receives them); tokens ≈ bytes/4
 * like every figure here. No language server starts.
 *   node dist/bench/tools-list.js
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

import { createMcpServer } from '../src/frontends/mcp/server.js';
import { Gateway } from '../src/gateway/gateway.js';
import { DEFAULT_EDIT_TOOLS, PROFILE_NAMES, profileTools, selectTools } from '../src/operations/profiles.js';

export interface ProfileSize {
  profile: string;
  tools: number;
  bytes: number;
  tokens: number;
  /** The same list without each tool's outputSchema. */
  tokensNoOutput: number;
}

/**
 * The goals: core ≤ 4,000 tokens without output schemas and ≤ 8,000 with them; default (what
 * `lspgate mcp` lists without --tools) ≤ 20 tools and ≤ 10,000 tokens with output schemas; all
 * ≤ 16,000 without.
 */
export const TOOLS_LIST_TARGETS: Record<string, { noOutput?: number; withOutput?: number; tools?: number }> = {
  core: { noOutput: 4000, withOutput: 8000 },
  default: { withOutput: 10_000, tools: 20 },
  all: { noOutput: 16_000 },
};

const tokens = (bytes: number) => Math.ceil(bytes / 4);

async function listSize(gateway: Gateway, tools: ReadonlySet<string>): Promise<{ tools: number; bytes: number; bytesNoOutput: number }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(gateway, tools);
  await server.connect(serverSide);
  const client = new Client({ name: 'lspgate-bench', version: '0.0.0' });
  await client.connect(clientSide);
  try {
    const r = await client.listTools();
    const bare = { ...r, tools: r.tools.map(({ outputSchema: _o, ...t }) => t) };
    return { tools: r.tools.length, bytes: Buffer.byteLength(JSON.stringify(r)), bytesNoOutput: Buffer.byteLength(JSON.stringify(bare)) };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function toolsListSizes(gateway: Gateway): Promise<ProfileSize[]> {
  const ops = gateway.operations();
  const out: ProfileSize[] = [];
  const row = async (profile: string, names: ReadonlySet<string>) => {
    const s = await listSize(gateway, names);
    out.push({ profile, tools: s.tools, bytes: s.bytes, tokens: tokens(s.bytes), tokensNoOutput: tokens(s.bytesNoOutput) });
  };
  for (const profile of PROFILE_NAMES) await row(profile, selectTools(profile, ops));
  // One tool alone: what each further tool costs on average is (all − core) / (count difference).
  await row('get_context alone', selectTools(['get_context'], ops));
  return out;
}

function verdict(value: number, target: number | undefined): string {
  return target === undefined ? '' : ` (≤ ${target.toLocaleString('en')}: ${value <= target ? 'met' : 'missed'})`;
}

export function toolsListTable(rows: ProfileSize[]): string {
  const lines = ['| Profile | tools | tools/list | without output schemas |', '|---|---:|---:|---:|'];
  for (const r of rows) {
    const t = TOOLS_LIST_TARGETS[r.profile];
    lines.push(
      `| \`${r.profile}\` | ${r.tools}${verdict(r.tools, t?.tools)} | ~${r.tokens.toLocaleString('en')} tokens${verdict(r.tokens, t?.withOutput)} | ~${r.tokensNoOutput.toLocaleString('en')} tokens${verdict(r.tokensNoOutput, t?.noOutput)} |`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The tools/list table on a fresh empty workspace (no server starts), with the core list named. */
export async function toolsListReport(): Promise<{ text: string; rows: ProfileSize[] }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-tools-'));
  const gateway = await Gateway.create({ root, cacheDir: path.join(root, '.cache') });
  try {
    const rows = await toolsListSizes(gateway);
    const core = profileTools('core', gateway.operations()).join(', ');
    const text = `tools/list per profile (core = ${core}; default = core + ${DEFAULT_EDIT_TOOLS.join(', ')})\n\n${toolsListTable(rows)}`;
    return { text, rows };
  } finally {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write((await toolsListReport()).text);
}
