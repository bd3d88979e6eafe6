/**
 * Workspace trust in config loading: an untrusted folder's own `.lspgate/servers.json` is cut to
 * data (no command, args, env, extraPath, package, new entries, program paths in settings, `${…}`
 * expansions) and its config.json may only lower limits; `lspgate trust` (setTrust) lets both apply.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadLimits, loadServers } from '../../src/config/load.js';
import { isTrusted, setTrust, trustedFolders } from '../../src/config/trust.js';
import { untrustedLayer } from '../../src/config/workspace-layer.js';
import { attachEnvironment } from '../../src/link/config-env.js';
import { tempJsonFiles } from '../helpers/temp-json.js';

const { tempDir, write } = tempJsonFiles('lspgate-trust-');
function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, XDG_CONFIG_HOME: tempDir() };
}

const HOSTILE = {
  servers: [
    {
      id: 'pyright',
      command: '/tmp/evil',
      args: ['${root}/evil.cjs'],
      env: { NODE_OPTIONS: '--require ./evil.cjs' },
      extraPath: ['${root}/bin'],
      package: 'evil',
      binPath: 'evil.js',
      node: true,
      requires: ['evil'],
      runsPrograms: ['evil'],
      timeouts: { requestMs: 999_999_999 },
      enabled: true,
      extensions: ['.py', '.pyi'],
      settings: {
        python: {
          pythonPath: './evil',
          venvPath: '.',
          analysis: { typeCheckingMode: 'strict', autoSearchPaths: true, extraPaths: ['x'], stubs: '${root}/x', n: 3, list: ['a', 'b/c'] },
        },
      },
      initializationOptions: { tsserver: { path: '/x' }, plugins: [], hostInfo: 'evil.exe', preferences: { quoteStyle: 'single' } },
    },
    { id: 'brand-new', languages: ['x'], extensions: ['.x'], command: 'sh', install: 'x' },
  ],
};

describe('an untrusted workspace servers.json', () => {
  it('keeps data and names each setting it drops', () => {
    const { entries, ignored } = untrustedLayer(HOSTILE.servers as never, new Set(['pyright']));
    expect(entries).toEqual([
      {
        id: 'pyright',
        extensions: ['.py', '.pyi'],
        settings: { python: { analysis: { typeCheckingMode: 'strict', n: 3 } } },
        initializationOptions: { preferences: { quoteStyle: 'single' } },
      },
    ]);
    for (const s of ['command', 'args', 'env', 'extraPath', 'package', 'binPath', 'node', 'requires', 'runsPrograms', 'timeouts', 'enabled']) {
      expect(ignored).toContain(`servers[pyright].${s}`);
    }
    expect(ignored).toEqual(
      expect.arrayContaining([
        'servers[pyright].settings.python.pythonPath',
        'servers[pyright].settings.python.venvPath',
        'servers[pyright].settings.python.analysis.extraPaths',
        // harmless, but its name says path: the rule errs on the side of dropping
        'servers[pyright].settings.python.analysis.autoSearchPaths',
        'servers[pyright].settings.python.analysis.stubs',
        'servers[pyright].settings.python.analysis.list',
        'servers[pyright].initializationOptions.tsserver',
        'servers[pyright].initializationOptions.plugins',
        'servers[pyright].initializationOptions.hostInfo',
      ]),
    );
    expect(ignored.some((s) => s.startsWith('servers[brand-new]'))).toBe(true);
  });

  it('loadServers runs the shipped command, never the workspace one; trusted, the workspace wins', () => {
    const e = env();
    const root = tempDir();
    write(path.join(root, '.lspgate', 'servers.json'), HOSTILE);
    const ignored: string[] = [];
    const servers = loadServers({ workspaceRoot: root, env: e, ignored });
    const pyright = servers.find((s) => s.id === 'pyright')!;
    expect(pyright).toMatchObject({ command: 'pyright-langserver', args: ['--stdio'], env: {}, extraPath: [] });
    expect(pyright.settings).toMatchObject({ python: { analysis: { typeCheckingMode: 'strict' } } });
    expect(JSON.stringify(pyright)).not.toContain('evil');
    expect(servers.some((s) => s.id === 'brand-new')).toBe(false);
    expect(ignored).toContain(`${path.join('.lspgate', 'servers.json')} servers[pyright].env`);

    expect(setTrust(path.join(root, '.'), true, e).changed).toBe(true);
    expect(isTrusted(path.join(root, '.lspgate'), e)).toBe(true);
    const trusted = loadServers({ workspaceRoot: root, env: e });
    expect(trusted.find((s) => s.id === 'pyright')).toMatchObject({ command: '/tmp/evil', env: { NODE_OPTIONS: '--require ./evil.cjs' } });
    expect(trusted.some((s) => s.id === 'brand-new')).toBe(true);

    expect(setTrust(root, false, e).changed).toBe(true);
    expect(trustedFolders(e)).toEqual([]);
    expect(loadServers({ workspaceRoot: root, env: e }).find((s) => s.id === 'pyright')!.command).toBe('pyright-langserver');
  });

  it("gopls runs with cgo off for an untrusted folder (its #cgo lines would choose pkg-config's arguments), the user's setting for a trusted one", () => {
    const e = env();
    const root = tempDir();
    // the repository cannot turn it back on, nor set the untrusted environment itself
    write(path.join(root, '.lspgate', 'servers.json'), { servers: [{ id: 'gopls', env: { CGO_ENABLED: '1' }, untrustedEnv: {} }] });
    const gopls = loadServers({ workspaceRoot: root, env: e }).find((s) => s.id === 'gopls')!;
    expect(gopls.env).toMatchObject({ CGO_ENABLED: '0', GOTOOLCHAIN: 'local' });
    setTrust(root, true, e);
    const trusted = loadServers({ workspaceRoot: root, env: e }).find((s) => s.id === 'gopls')!;
    expect(trusted.env).toMatchObject({ CGO_ENABLED: '1', GOTOOLCHAIN: 'local' });
  });

  it('a trusted parent trusts the folder; a sibling with a shared prefix is not trusted', () => {
    const e = env();
    const parent = tempDir();
    fs.mkdirSync(path.join(parent, 'a', 'b'), { recursive: true });
    fs.mkdirSync(path.join(parent, 'ab'));
    setTrust(path.join(parent, 'a'), true, e);
    expect(isTrusted(path.join(parent, 'a', 'b'), e)).toBe(true);
    expect(isTrusted(path.join(parent, 'ab'), e)).toBe(false);
    expect(isTrusted(parent, e)).toBe(false);
    // a repository cannot trust itself from its own config.json
    write(path.join(parent, 'ab', '.lspgate', 'config.json'), { trustedFolders: [path.join(parent, 'ab')] });
    expect(isTrusted(path.join(parent, 'ab'), e)).toBe(false);
  });
});

describe('limits from a workspace config.json', () => {
  it('may lower, never raise, unless the folder is trusted', () => {
    const e = env();
    const root = tempDir();
    write(path.join(root, '.lspgate', 'config.json'), { limits: { maxFileBytes: 2e9, maxResults: 7, serverMemoryMb: 0 } });
    const ignored: string[] = [];
    const l = loadLimits(root, e, { ignored });
    expect(l.maxFileBytes).toBe(1_000_000);
    expect(l.maxResults).toBe(7);
    // 0 is "no memory budget": higher than any
    expect(l.serverMemoryMb).toBeUndefined();
    expect(ignored.join('\n')).toMatch(/limits\.maxFileBytes \(2000000000; it may only lower the limit, 1000000\)/);
    expect(ignored.join('\n')).toContain('limits.serverMemoryMb');
    // the user's own config may raise it, and the workspace may lower that
    write(path.join(e.XDG_CONFIG_HOME!, 'lspgate', 'config.json'), { limits: { maxFileBytes: 5_000_000 } });
    expect(loadLimits(root, e).maxFileBytes).toBe(5_000_000);
    setTrust(root, true, e);
    expect(loadLimits(root, e).maxFileBytes).toBe(2e9);
  });
});

describe('the daemon attach environment', () => {
  it("does not change when a folder is trusted (the daemon never reads a root's own config)", () => {
    const e: NodeJS.ProcessEnv = { ...env(), HOME: os.homedir() };
    write(path.join(e.XDG_CONFIG_HOME!, 'lspgate', 'config.json'), { allowedRoots: ['/x'] });
    const before = attachEnvironment(e).user_files['config.json'];
    setTrust(tempDir(), true, e);
    expect(attachEnvironment(e).user_files['config.json']).toBe(before);
    write(path.join(e.XDG_CONFIG_HOME!, 'lspgate', 'config.json'), { allowedRoots: ['/y'] });
    expect(attachEnvironment(e).user_files['config.json']).not.toBe(before);
  });
});
