/**
 * The real operation table over MCP: in-process (one tool per registry operation, with the
 * descriptor output schemas) and over loopback HTTP from a spawned `lspgate mcp --http`, both
 * answering find_definition on fixtures/ts-app with the real typescript-language-server.
 */
import { readFileSync } from 'node:fs';

import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listedAnnotations } from '../../src/frontends/mcp/server.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { profileTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { connectHttp, connectInProcess, errorOf, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, spawnNode, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

/** Bound for tests that start a real language server (the CI machine is shared). */
const SERVER_TEST_TIMEOUT_MS = 150_000;

describe('real operations over in-process MCP', () => {
  let gateway: Gateway;
  let client: Client;
  let close: () => Promise<void>;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = tempDir();
    gateway = await Gateway.create({ root: TS_APP, cacheDir });
    ({ client, close } = await connectInProcess(gateway));
  });

  afterAll(async () => {
    await close?.();
    await gateway?.close();
    removeDir(cacheDir);
  });

  it('lists the all profile of the registry, each tool with an output schema and its annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(profileTools('all', operations).sort());
    for (const t of tools) {
      expect(t.outputSchema, t.name).toBeDefined();
      expect(t.annotations, t.name).toEqual(listedAnnotations(operations.find((o) => o.name === t.name)!.annotations));
    }
    // the tools that write files say so: rename/code-action apply, and tag_elements with dry_run: false
    for (const name of ['rename_symbol', 'tag_elements'])
      expect(tools.find((t) => t.name === name)!.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it(
    'find_definition answers the declaration of formatName as structuredContent and markdown, with server progress',
    async () => {
      // The first call starts typescript-language-server: a client that asked for progress hears about it.
      const progress: { progress: number; message?: string }[] = [];
      const r = await client.callTool({ name: 'find_definition', arguments: { symbol: 'formatName' } }, { onprogress: (p) => progress.push(p) });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(progress.map((p) => p.message)).toContain('typescript-language-server: ready');
      expect(progress.some((p) => /^typescript-language-server: (starting|indexing)/.test(p.message ?? ''))).toBe(true);
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      const sc = r.structuredContent as { definitions: { file: string; line: number; column: number }[]; _meta: { servers: { id: string }[] } };
      expect(sc.definitions.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(['src/util/strings.ts:7:17']);
      expect(sc._meta.servers.map((s) => s.id)).toEqual(['typescript-language-server']);
      expect(textOf(r)).toContain('src/util/strings.ts:7');
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('an ambiguous name is an isError result listing candidates with symbol ids', async () => {
    const r = await client.callTool({ name: 'find_references', arguments: { symbol: 'describe' } });
    expect(r.isError).toBe(true);
    const sc = errorOf(r) as { code: string; details: { candidates: { symbol_id: string }[] } };
    expect(sc.code).toBe('AMBIGUOUS_SYMBOL');
    expect(sc.details.candidates.length).toBeGreaterThanOrEqual(3);
    for (const c of sc.details.candidates) expect(c.symbol_id).toMatch(/::.*describe#/);
  });
});

describe('real operations over MCP Streamable HTTP (lspgate mcp --http)', () => {
  it(
    'find_definition through the real client with the bearer token',
    async () => {
      assertBuilt();
      const cacheDir = tempDir();
      const p = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', TS_APP], { cacheDir });
      try {
        await waitFor(() => /bearer token written to (\S+)/.test(p.stderr()), 'the HTTP listener');
        const url = /listening on (http:\/\/\S+)/.exec(p.stderr())![1]!;
        const token = readFileSync(/bearer token written to (\S+)/.exec(p.stderr())![1]!, 'utf8').trim();
        const client = await connectHttp(url, token);
        const r = await client.callTool({ name: 'find_definition', arguments: { symbol: 'formatName', output_format: 'json' } });
        await client.close();
        expect(r.isError, textOf(r)).toBeFalsy();
        const sc = r.structuredContent as { definitions: { file: string; line: number }[] };
        expect(sc.definitions.map((d) => `${d.file}:${d.line}`)).toEqual(['src/util/strings.ts:7']);
        expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
      } finally {
        p.child.kill('SIGTERM');
        await p.exited;
        removeDir(cacheDir);
      }
    },
    SERVER_TEST_TIMEOUT_MS,
  );
});
