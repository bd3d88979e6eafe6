/**
 * A private key in a fenced block of a Markdown file is a secret file's content like any other: a
 * file holding a private-key block is never searched, whatever its name or kind. Through the
 * spawned `lspgate mcp` (search_code and its seed-003 alias `search`) and the one-shot CLI, the
 * key's lines never come back, while the other documents still answer (so the search ran).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const KEY_BODY = 'MIIEowIBAAKCAQEAdeploycanary7Qx';
const README = [
  '# Deploy notes',
  '',
  'How the deploy robot logs in to the staging host.',
  '',
  '## Deploy key',
  '',
  'Paste this deploy key into the staging host:',
  '',
  '```',
  '-----BEGIN RSA PRIVATE KEY-----',
  KEY_BODY,
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
  '-----END RSA PRIVATE KEY-----',
  '```',
  '',
].join('\n');
const GUIDE = '# Staging guide\n\nThe deploy robot restarts the staging host every night.\n';

const leaks = (text: string) => text.includes(KEY_BODY) || text.includes('PRIVATE KEY');

describe('a private key in a Markdown fenced block', () => {
  let base: string;
  let ws: string;
  let cacheDir: string;
  let mcp: StdioConnection;

  beforeAll(async () => {
    assertBuilt();
    base = tempDir('lspgate-doc-key-');
    ws = path.join(base, 'ws');
    cacheDir = path.join(base, 'cache');
    mkdirSync(path.join(ws, 'docs'), { recursive: true });
    writeFileSync(path.join(ws, 'README.md'), README);
    writeFileSync(path.join(ws, 'docs', 'guide.md'), GUIDE);
    // `search` (the seed-003 shape) is listed only when named
    mcp = await connectStdio(CLI, ['mcp', '--root', ws, '--tools', 'search_code,search'], { cacheDir });
  });

  afterAll(async () => {
    await mcp?.client.close();
    removeDir(base);
  });

  it('MCP stdio search_code and search: the other document answers, the key file never does', async () => {
    for (const query of ['deploy key staging host', 'RSA PRIVATE KEY', KEY_BODY]) {
      const r = await mcp.client.callTool({ name: 'search_code', arguments: { query, include_text: true, output_format: 'json' } });
      expect(r.isError, textOf(r)).not.toBe(true);
      // the answer echoes the query (which names the key): look at everything else
      const text = textOf(r).split(JSON.stringify(query)).join('') + JSON.stringify({ ...(r.structuredContent ?? {}), query: '' });
      expect(leaks(text)).toBe(false);
      expect(text).not.toContain('README.md');
    }
    const hits = await mcp.client.callTool({ name: 'search_code', arguments: { query: 'deploy robot staging host', output_format: 'json' } });
    expect((hits.structuredContent as { hits: { citation: { file: string } }[] }).hits.map((h) => h.citation.file)).toEqual(['docs/guide.md']);
    const alias = await mcp.client.callTool({ name: 'search', arguments: { query: 'deploy key staging host', output_format: 'json' } });
    const aliasText = textOf(alias) + JSON.stringify(alias.structuredContent ?? {});
    expect(leaks(aliasText)).toBe(false);
    expect((alias.structuredContent as { results: { anchor: { file: string } }[] }).results.map((h) => path.basename(h.anchor.file))).toEqual(['guide.md']);
  });

  it('one-shot CLI search_code: the key never printed', async () => {
    const r = await runCli(['search_code', 'deploy key staging host', '--root', ws, '--json'], { cacheDir });
    expect(r.code).toBe(0);
    expect(leaks(r.stdout + r.stderr)).toBe(false);
    expect(r.stdout).toContain('docs/guide.md');
  });
});
