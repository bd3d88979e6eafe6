/**
 * Tool profiles: `lspgate mcp --tools core|default|all|name,…` and `"tools"` in config, over stdio and
 * HTTP (the real CLI), and an unknown name as a startup error. tools/list never starts a language server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { profileTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { connectHttp, connectStdio } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, REPO, runCli, spawnNode, tempDir, waitFor } from '../helpers/spawn.js';

const CORE_TOOLS = profileTools('core', operations);
const DEFAULT_TOOLS = profileTools('default', operations);
const cacheDir = tempDir();
const root = tempDir('lspgate-profiles-');
afterAll(() => {
  removeDir(cacheDir);
  removeDir(root);
});

/** A list docs/front-ends.md documents under "Tool profiles", on the line that starts with `start`. */
function documented(start: string): string[] {
  const page = readFileSync(path.join(REPO, 'docs', 'front-ends.md'), 'utf8');
  const line = page.split('\n').find((l) => l.startsWith(start));
  if (!line) throw new Error(`docs/front-ends.md has no "${start}" line`);
  return [...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((n) => n !== 'core' && n !== 'default');
}

describe('tool profiles', () => {
  it('core and default are the documented lists, every name an operation', () => {
    expect(documented('Core tools (`--tools core`').sort()).toEqual([...CORE_TOOLS].sort());
    expect(documented('Default tools (no `--tools`').sort()).toEqual([...DEFAULT_TOOLS.filter((n) => !CORE_TOOLS.includes(n))].sort());
    for (const name of DEFAULT_TOOLS) expect(operations.map((o) => o.name)).toContain(name);
  });

  it('stdio: --tools core lists exactly the core tools; without it, the default profile; --tools all, all', async () => {
    assertBuilt();
    const core = await connectStdio(CLI, ['mcp', '--root', root, '--tools', 'core'], { cacheDir });
    try {
      expect((await core.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...CORE_TOOLS].sort());
    } finally {
      await core.client.close();
    }
    const plain = await connectStdio(CLI, ['mcp', '--root', root], { cacheDir });
    try {
      expect((await plain.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...DEFAULT_TOOLS].sort());
      // the agent is told how to get the rest
      expect(plain.client.getInstructions()).toContain('--tools all');
    } finally {
      await plain.client.close();
    }
    const all = await connectStdio(CLI, ['mcp', '--root', root, '--tools', 'all'], { cacheDir });
    try {
      expect((await all.client.listTools()).tools.map((t) => t.name).sort()).toEqual(profileTools('all', operations).sort());
      expect(all.client.getInstructions()).not.toContain('--tools all');
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

  it('stdio: the repository config cannot widen the user\'s "tools": "all" over the user\'s core lists core and says why', async () => {
    const cfg = tempDir('lspgate-profiles-cfg-');
    mkdirSync(path.join(cfg, 'lspgate'), { recursive: true });
    writeFileSync(path.join(cfg, 'lspgate', 'config.json'), JSON.stringify({ tools: 'core' }));
    mkdirSync(path.join(root, '.lspgate'), { recursive: true });
    writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify({ tools: 'all', trustedFolders: [root] }));
    const widened = await connectStdio(CLI, ['mcp', '--root', root], { cacheDir, env: { XDG_CONFIG_HOME: cfg } });
    try {
      expect((await widened.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...CORE_TOOLS].sort());
      const instructions = widened.client.getInstructions() ?? '';
      expect(instructions).toContain('ignored .lspgate/config.json "tools" "all"');
      expect(instructions).toContain('"trustedFolders": only the user\'s config');
      expect(instructions).toContain('lspgate trust ');
      await waitFor(() => widened.stderr().includes('beyond the user\'s profile "core"'), 'the warning on stderr');
    } finally {
      await widened.client.close();
      writeFileSync(path.join(root, '.lspgate', 'config.json'), '{}');
      removeDir(cfg);
    }
  });

  it('HTTP: --tools core applies to the Streamable HTTP transport too', async () => {
    const proc = spawnNode(CLI, ['mcp', '--http', '--port', '0', '--root', root, '--tools', 'core'], { cacheDir, cwd: REPO });
    try {
      await waitFor(
        () => /bearer token written to (\S+)/.test(proc.stderr()) && /listening on (http:\/\/\S+)/.test(proc.stderr()),
        'the HTTP server to listen',
      );
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
    expect(r.stderr).toContain('valid: core, default, all, ');
    expect(r.stderr).toContain('get_context');
    writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify({ tools: 'most' }));
    const bad = await runCli(['mcp', '--root', root], { cacheDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"tools" must be "core", "default", "all" or a list of operation names/);
    writeFileSync(path.join(root, '.lspgate', 'config.json'), '{}');
  });
});
