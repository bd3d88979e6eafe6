/**
 * Tool profiles: `lspgate mcp --tools core|all|name,…` and `"tools"` in config, over stdio and HTTP
 * (the real CLI), and an unknown name as a startup error. tools/list never starts a language server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { connectHttp, connectStdio } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, REPO, removeDir, runCli, spawnNode, tempDir, waitFor } from '../helpers/spawn.js';

const CORE_TOOLS = profileTools('core', operations);
const cacheDir = tempDir();
const root = tempDir('lspgate-profiles-');
afterAll(() => {
  removeDir(cacheDir);
  removeDir(root);
});

/** The list the README documents under "Tool profiles". */
function documentedCore(): string[] {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.startsWith('Core tools (`--tools core`'));
  if (!line) throw new Error('README has no "Core tools (`--tools core`" line');
  return [...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((n) => n !== 'core');
}

describe('tool profiles', () => {
  it('core is the documented list, every name an operation', () => {
    expect(documentedCore().sort()).toEqual([...CORE_TOOLS].sort());
    for (const name of CORE_TOOLS) expect(operations.map((o) => o.name)).toContain(name);
  });

  it('stdio: --tools core lists exactly the core tools; without it, all', async () => {
    assertBuilt();
    const core = await connectStdio(CLI, ['mcp', '--root', root, '--tools', 'core'], { cacheDir });
    try {
      expect((await core.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...CORE_TOOLS].sort());
    } finally {
      await core.client.close();
    }
    const all = await connectStdio(CLI, ['mcp', '--root', root], { cacheDir });
    try {
      expect((await all.client.listTools()).tools.map((t) => t.name).sort()).toEqual(profileTools('all', operations).sort());
    } finally {
      await all.client.close();
    }
  });

  it('stdio: "tools" in the workspace config picks the tools; --tools wins over it', async () => {
    mkdirSync(path.join(root, '.lspgate'), { recursive: true });
    writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify({ tools: ['find_definition', 'get_context'] }));
    const fromConfig = await connectStdio(CLI, ['mcp', '--root', root], { cacheDir });
    try {
      expect((await fromConfig.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['find_definition', 'get_context']);
    } finally {
      await fromConfig.client.close();
    }
    const flag = await connectStdio(CLI, ['mcp', '--root', root, '--tools', 'search_text'], { cacheDir });
    try {
      expect((await flag.client.listTools()).tools.map((t) => t.name)).toEqual(['search_text']);
    } finally {
      await flag.client.close();
      writeFileSync(path.join(root, '.lspgate', 'config.json'), '{}');
    }
  });

  it('HTTP: --tools core applies to the Streamable HTTP transport too', async () => {
    const proc = spawnNode(CLI, ['mcp', '--http', '--port', '0', '--root', root, '--tools', 'core'], { cacheDir, cwd: REPO });
    try {
      await waitFor(() => /bearer token written to (\S+)/.test(proc.stderr()) && /listening on (http:\/\/\S+)/.test(proc.stderr()), 'the HTTP server to listen');
      const url = /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]!;
      const token = readFileSync(/bearer token written to (\S+)/.exec(proc.stderr())![1]!, 'utf8').trim();
      const client = await connectHttp(url, token);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...CORE_TOOLS].sort());
      await client.close();
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });

  it('an unknown tool name is a startup error naming it and listing the valid ones (exit 2)', async () => {
    const r = await runCli(['mcp', '--root', root, '--tools', 'find_definition,find_defintion'], { cacheDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/INVALID_INPUT: unknown tool find_defintion in --tools/);
    expect(r.stderr).toContain('valid: core, all, ');
    expect(r.stderr).toContain('get_context');
    writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify({ tools: 'most' }));
    const bad = await runCli(['mcp', '--root', root], { cacheDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"tools" must be "core", "all" or a list of operation names/);
    writeFileSync(path.join(root, '.lspgate', 'config.json'), '{}');
  });
});
