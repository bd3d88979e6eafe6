/**
 * MCP beyond tools, in process with the real client and a real typescript-language-server on a
 * copy of fixtures/ts-app (a git repository, so the working-tree change can be reviewed):
 * resources and templates (file outline, symbol source by id, repo outline), subscriptions that
 * notify when the file changes on disk, completions of template and prompt arguments from the
 * catalog, the four prompts, and logging (lspgate's log lines and server lifecycle events).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Client, ReadResourceResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { outlineUri, repoOutlineUri, symbolUri } from '../../src/frontends/mcp/resources.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { removeDir, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

const SERVER_TEST_TIMEOUT_MS = 150_000;
const FORMAT_NAME = 'src/util/strings.ts::formatName#function';

let dir: string;
let root: string;
let gateway: Gateway;
let client: Client;
let close: () => Promise<void>;
let wsId: string;
const messages: { level: string; logger?: string; data: unknown }[] = [];
const updated: string[] = [];

function textOfPrompt(r: { messages: { content: { type: string; text?: string } }[] }): string {
  return r.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
}

function textOfResource(r: ReadResourceResult): string {
  return r.contents.map((c) => ('text' in c ? c.text : '')).join('');
}

beforeAll(async () => {
  dir = tempDir('lspgate-mcp-res-');
  root = path.join(dir, 'ws');
  cpSync(TS_APP, root, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'fixture');
  gateway = await Gateway.create({ root, cacheDir: path.join(dir, 'cache') });
  ({ client, close } = await connectInProcess(gateway));
  client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as (typeof messages)[number]));
  client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
  wsId = ((await client.callTool({ name: 'list_workspaces', arguments: {} })).structuredContent as { workspaces: { id: string }[] }).workspaces[0]!.id;
}, SERVER_TEST_TIMEOUT_MS);

afterAll(async () => {
  await close?.();
  await gateway?.close();
  if (dir) removeDir(dir);
});

describe('MCP resources, completions, prompts, logging', () => {
  it('advertises logging, completions, prompts and subscribable resources', () => {
    const caps = client.getServerCapabilities();
    expect(caps?.logging).toBeDefined();
    expect(caps?.completions).toBeDefined();
    expect(caps?.prompts).toBeDefined();
    expect(caps?.resources).toMatchObject({ subscribe: true });
  });

  it('lists the templates and one repo outline per open workspace', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'lspgate://{workspace}/outline/{+file}',
      'lspgate://{workspace}/repo-outline',
      'lspgate://{workspace}/symbol/{symbol_id}',
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(repoOutlineUri(wsId));
  });

  it(
    'reads a file outline, a symbol source by id and the repo outline',
    async () => {
      const outline = textOfResource(await client.readResource({ uri: outlineUri(wsId, 'src/util/strings.ts') }));
      expect(outline).toContain(FORMAT_NAME);
      const uri = symbolUri(wsId, FORMAT_NAME);
      // The id's `/`, `::` and `#` are percent-encoded in the URI.
      expect(uri).toBe(`lspgate://${wsId}/symbol/src%2Futil%2Fstrings.ts%3A%3AformatName%23function`);
      const source = textOfResource(await client.readResource({ uri }));
      expect(source).toContain('export function formatName(first: string, last: string): string');
      expect(textOfResource(await client.readResource({ uri: repoOutlineUri(wsId) }))).toContain('src/util');
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('answers an unknown symbol resource with -32602 carrying the lspgate code and the uri', async () => {
    const err = await client.readResource({ uri: symbolUri(wsId, 'src/util/strings.ts::nope#function') }).then(
      () => undefined,
      (e: { code?: number; data?: { code?: string; uri?: string } }) => e,
    );
    expect(err?.code).toBe(-32602);
    expect(err?.data).toMatchObject({ code: 'SYMBOL_NOT_FOUND', uri: symbolUri(wsId, 'src/util/strings.ts::nope#function') });
  });

  it(
    'completes template variables and prompt arguments from the catalog',
    async () => {
      const ids = await client.complete({
        ref: { type: 'ref/resource', uri: 'lspgate://{workspace}/symbol/{symbol_id}' },
        argument: { name: 'symbol_id', value: 'formatN' },
      });
      expect(ids.completion.values).toContain(FORMAT_NAME);
      const files = await client.complete({
        ref: { type: 'ref/resource', uri: 'lspgate://{workspace}/outline/{+file}' },
        argument: { name: 'file', value: 'src/util/s' },
      });
      expect(files.completion.values).toEqual(['src/util/strings.ts']);
      const wss = await client.complete({
        ref: { type: 'ref/resource', uri: 'lspgate://{workspace}/repo-outline' },
        argument: { name: 'workspace', value: '' },
      });
      expect(wss.completion.values).toContain(wsId);
      const names = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_symbol' }, argument: { name: 'symbol', value: 'formatN' } });
      expect(names.completion.values).toContain('formatName');
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'completes no local of a function body (`lines` in buildReport), though the catalog holds it',
    async () => {
      const found = (await gateway.run('search_symbols', { query: 'lines', output_format: 'json' })).result as unknown as {
        results: { qualified_name: string; scope: string }[];
      };
      expect(found.results).toContainEqual(expect.objectContaining({ qualified_name: 'buildReport.lines', scope: 'local' }));
      const names = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_symbol' }, argument: { name: 'symbol', value: 'lines' } });
      expect(names.completion.values.filter((v) => /(^|\.)lines$/.test(v))).toEqual([]);
      const ids = await client.complete({
        ref: { type: 'ref/resource', uri: 'lspgate://{workspace}/symbol/{symbol_id}' },
        argument: { name: 'symbol_id', value: 'lines' },
      });
      expect(ids.completion.values.filter((v) => v.includes('buildReport.lines'))).toEqual([]);
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'expands the prompts into the operations results',
    async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(['assess_impact', 'explain_symbol', 'explore_repository', 'review_change']);
      const explain = textOfPrompt(await client.getPrompt({ name: 'explain_symbol', arguments: { symbol: 'formatName' } }));
      expect(explain).toContain('export function formatName');
      expect(explain).toContain('summarizeUsers'); // a caller (fixtures/ts-app/EXPECTED.md)
      const impact = textOfPrompt(await client.getPrompt({ name: 'assess_impact', arguments: { symbol: 'formatName' } }));
      expect(impact).toContain('src/services/report.ts');
      expect(impact).toContain('summarizeUsers');
      const explore = textOfPrompt(await client.getPrompt({ name: 'explore_repository', arguments: {} }));
      expect(explore).toContain('strings.ts');
      const missing = await client.getPrompt({ name: 'explain_symbol', arguments: { symbol: 'noSuchSymbolAnywhere' } }).then(
        () => undefined,
        (e: { code?: number; data?: { code?: string } }) => e,
      );
      expect(missing?.data?.code).toBe('SYMBOL_NOT_FOUND');
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'reviews the working-tree change: the diff against HEAD',
    async () => {
      const file = path.join(root, 'src/util/strings.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('export function capitalize', '// reviewed\nexport function capitalize'));
      const review = textOfPrompt(await client.getPrompt({ name: 'review_change', arguments: {} }));
      expect(review).toContain('+// reviewed');
      expect(review).toContain('diff --git a/src/util/strings.ts');
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'notifies a subscriber when the file behind a resource changes',
    async () => {
      const uri = outlineUri(wsId, 'src/util/math.ts');
      await client.subscribeResource({ uri });
      const file = path.join(root, 'src/util/math.ts');
      writeFileSync(file, readFileSync(file, 'utf8') + '\nexport function addedLater(): number {\n  return 1;\n}\n');
      await waitFor(() => updated.includes(uri), 'notifications/resources/updated for the outline');
      expect(textOfResource(await client.readResource({ uri }))).toContain('addedLater');
      await client.unsubscribeResource({ uri });
      // A subscription to a path outside the workspace is refused by the operation's own check.
      await expect(client.subscribeResource({ uri: outlineUri(wsId, '../../etc/passwd') })).rejects.toMatchObject({ data: { code: 'PATH_OUTSIDE_WORKSPACE' } });
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('sends server lifecycle events and, at debug, lspgate log lines', async () => {
    // The typescript server started for the calls above: its start and readiness were logged.
    const lifecycle = messages.filter((m) => m.logger === 'lspgate:servers').map((m) => m.data as { event: string; server: string });
    expect(lifecycle).toContainEqual(expect.objectContaining({ event: 'starting', server: 'typescript-language-server' }));
    expect(lifecycle).toContainEqual(expect.objectContaining({ event: 'ready', server: 'typescript-language-server' }));
    expect(messages.some((m) => m.level === 'debug')).toBe(false);
    await client.setLoggingLevel('debug');
    const before = messages.length;
    await gateway.context.logger.child('test').debug('a line for the client');
    await waitFor(() => messages.slice(before).some((m) => m.level === 'debug' && m.data === 'a line for the client'), 'the debug line');
    await client.setLoggingLevel('error');
    const after = messages.length;
    gateway.context.logger.warn('not for an error-level client');
    gateway.context.logger.error('for an error-level client');
    await waitFor(() => messages.length > after, 'the error line');
    expect(messages.slice(after).map((m) => m.level)).toEqual(['error']);
  });
});
