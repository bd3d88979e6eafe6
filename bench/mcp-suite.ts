/**
 * The MCP column: `lspgate mcp --root DIR` spawned over stdio, driven by the MCP client SDK. Cold
 * = first call of each query; hit = the same call again (answered from lspgate's response cache,
 * plus the stdio transport and JSON (de)serialisation). lspgate's own peak RSS is measured here,
 * on the MCP process alone, with the servers' tree measured apart.
 */
import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { Query } from './query-set.js';
import { packageRoot, peakRssMb, treePeakRssMb } from './raw-client.js';
import { countError, emptySamples, type SuiteResult } from './suite-types.js';
import { type Kind, KINDS, WORKLOADS } from './workloads.js';

export interface McpSuiteOptions {
  /** Node flags for the spawned lspgate process (bench --node-flags), e.g. --max-semi-space-size=2. */
  nodeFlags?: string[];
  root: string;
  queries: Query[];
  reps: number;
  cacheDir: string;
  available: Set<string>;
}

interface ToolAnswer {
  isError?: boolean;
  /** Error results carry the lspgate error here (and as JSON text), not in structuredContent. */
  _meta?: { 'lspgate/error'?: { code?: string; error?: string } };
}

export async function runMcpSuite(o: McpSuiteOptions): Promise<SuiteResult> {
  const result: SuiteResult = { label: 'mcp', serverId: '', startToReadyMs: 0, kinds: {}, errors: {} };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LSPGATE_CACHE_DIR = o.cacheDir;
  env.LSPGATE_LOG = 'error';
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(o.nodeFlags ?? []), path.join(packageRoot, 'dist/src/cli/main.js'), 'mcp', '--tools', 'all', '--root', o.root],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'lspgate-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid ?? undefined;
  const kinds = KINDS.filter((k) => o.available.has(WORKLOADS[k].op));
  const call = async (kind: Kind, q: Query): Promise<number | undefined> => {
    const t = performance.now();
    try {
      const answer = (await client.callTool({ name: WORKLOADS[kind].op, arguments: WORKLOADS[kind].input(q) })) as ToolAnswer;
      const ms = performance.now() - t;
      if (answer.isError) {
        const sc = answer._meta?.['lspgate/error'];
        countError(result, { code: sc?.code ?? 'MCP_TOOL_ERROR', message: sc?.error }, `${WORKLOADS[kind].op} ${JSON.stringify(WORKLOADS[kind].input(q))}`);
        return undefined;
      }
      return ms;
    } catch (e) {
      countError(result, e);
      return undefined;
    }
  };
  try {
    const first = o.queries[0]!;
    await call('documentSymbol', first);
    result.startToReadyMs = performance.now() - t0;
    for (const kind of kinds) {
      const samples = (result.kinds[kind] = emptySamples());
      for (const q of o.queries.filter(WORKLOADS[kind].applies)) {
        const ms = await call(kind, q);
        if (ms !== undefined) samples.cold.push(ms);
      }
    }
    for (let rep = 0; rep < o.reps; rep++) {
      for (const kind of kinds) {
        for (const q of o.queries.filter(WORKLOADS[kind].applies)) {
          const ms = await call(kind, q);
          if (ms !== undefined) result.kinds[kind]!.hit.push(ms);
        }
      }
    }
    if (pid) {
      result.selfRssMb = peakRssMb(pid);
      result.serverRssMb = treePeakRssMb(pid, [pid]);
    }
  } finally {
    await client.close();
  }
  return result;
}
