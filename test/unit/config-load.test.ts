import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  expandVariables,
  limitEnvName,
  loadLimits,
  loadServers,
  MissingPackageError,
  missingRequirement,
  packageDir,
  packageRoot,
  resolveCommand,
} from '../../src/config/load.js';
import { LspgateError } from '../../src/errors/errors.js';

const tmp: string[] = [];
function tempDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cfg-')));
  tmp.push(d);
  return d;
}
function write(file: string, data: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}
function caught(fn: () => unknown): LspgateError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LspgateError) return e;
    throw e;
  }
  throw new Error('expected a throw');
}
afterEach(() => {
  for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Isolated from the developer's own ~/.config. */
function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, XDG_CONFIG_HOME: tempDir() };
}

describe('loadServers', () => {
  it('finds the shipped servers.json from the package root', () => {
    expect(fs.existsSync(path.join(packageRoot(), 'servers.json'))).toBe(true);
    const ids = loadServers({ workspaceRoot: tempDir(), env: env() }).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['typescript-language-server', 'pyright', 'intelephense', 'gopls']));
  });

  it('merges user, workspace and extra layers by id; partial objects override key by key', () => {
    const e = env();
    const root = tempDir();
    write(path.join(e.XDG_CONFIG_HOME!, 'lspgate', 'servers.json'), {
      servers: [
        { id: 'gopls', enabled: false },
        { id: 'pyright', timeouts: { requestMs: 5000 } },
      ],
    });
    write(path.join(root, '.lspgate', 'servers.json'), { servers: [{ id: 'gopls', enabled: true, priority: 3 }] });
    // the workspace layer applies in full only where the user trusted the folder (config/trust.ts)
    write(path.join(e.XDG_CONFIG_HOME!, 'lspgate', 'config.json'), { trustedFolders: [root] });
    const extra = write(path.join(tempDir(), 'x.json'), {
      servers: [{ id: 'mylang', languages: ['my'], extensions: ['.my'], command: 'my-ls', install: 'get it' }],
    });
    const servers = loadServers({ workspaceRoot: root, extraFiles: [extra], env: e });
    const byId = new Map(servers.map((s) => [s.id, s]));
    expect(byId.get('gopls')).toMatchObject({ enabled: true, priority: 3, command: 'gopls' });
    // requestMs overridden, the shipped readyMs kept
    expect(byId.get('pyright')!.timeouts).toMatchObject({ requestMs: 5000, readyMs: 60000 });
    expect(byId.get('mylang')).toMatchObject({ readiness: { kind: 'first-reply' }, adapter: 'generic', enabled: true });
  });

  it('a bad file is INVALID_INPUT naming the file and the issues', () => {
    const root = tempDir();
    write(path.join(root, '.lspgate', 'servers.json'), { servers: [{ id: 'gopls', timeouts: { requestMs: -1 } }] });
    const err = caught(() => loadServers({ workspaceRoot: root, env: env() }));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details?.file).toBe(path.join(root, '.lspgate', 'servers.json'));
    expect(Array.isArray(err.details?.issues)).toBe(true);
  });

  it('invalid JSON and incomplete new entries are INVALID_INPUT', () => {
    const bad = write(path.join(tempDir(), 'bad.json'), '{ "servers": [');
    expect(caught(() => loadServers({ workspaceRoot: tempDir(), extraFiles: [bad], env: env() })).details?.file).toBe(bad);
    const partial = write(path.join(tempDir(), 'partial.json'), { servers: [{ id: 'newlang', command: 'x' }] });
    const err = caught(() => loadServers({ workspaceRoot: tempDir(), extraFiles: [partial], env: env() }));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details).toMatchObject({ server: 'newlang', file: partial });
    const missing = path.join(tempDir(), 'nope.json');
    expect(caught(() => loadServers({ workspaceRoot: tempDir(), extraFiles: [missing], env: env() })).code).toBe('INVALID_INPUT');
  });
});

describe('loadLimits', () => {
  it('defaults, then the workspace config, then LSPGATE_* env', () => {
    const root = tempDir();
    expect(loadLimits(root, {}).maxFileBytes).toBe(1_000_000);
    // lowering needs no trust
    write(path.join(root, '.lspgate', 'config.json'), { limits: { maxFileBytes: 2000, maxResults: 7 } });
    expect(loadLimits(root, {})).toMatchObject({ maxFileBytes: 2000, maxResults: 7 });
    expect(limitEnvName('perServerConcurrency')).toBe('LSPGATE_PER_SERVER_CONCURRENCY');
    const l = loadLimits(root, { LSPGATE_MAX_FILE_BYTES: '3000', LSPGATE_PER_SERVER_CONCURRENCY: '2' });
    expect(l).toMatchObject({ maxFileBytes: 3000, maxResults: 7, perServerConcurrency: 2 });
  });

  it('rejects bad values and unknown keys', () => {
    const root = tempDir();
    expect(caught(() => loadLimits(root, { LSPGATE_MAX_FILE_BYTES: 'big' })).code).toBe('INVALID_INPUT');
    expect(caught(() => loadLimits(root, { LSPGATE_MAX_RESULTS: '-3' })).code).toBe('INVALID_INPUT');
    write(path.join(root, '.lspgate', 'config.json'), { limits: { maxFileByts: 1 } });
    expect(caught(() => loadLimits(root, {})).code).toBe('INVALID_INPUT');
  });
});

describe('variables and command resolution', () => {
  const ctx = { cacheDir: '/c', root: '/r' };

  it('expands ${cacheDir}, ${root} and ${packageDir:x} everywhere', () => {
    const out = expandVariables({ a: ['${cacheDir}/x', { b: '${root}' }], t: '${packageDir:typescript}/lib', n: 3 }, ctx);
    expect(out).toEqual({ a: ['/c/x', { b: '/r' }], t: path.join(packageDir('typescript')!, 'lib'), n: 3 });
    expect(fs.existsSync(path.join(packageDir('typescript')!, 'lib', 'tsserver.js'))).toBe(true);
    expect(() => expandVariables('${packageDir:lspgate-no-such-package}', ctx)).toThrow(MissingPackageError);
  });

  it('resolves packaged servers from lspgate node_modules, never .bin, run with this Node', () => {
    const servers = loadServers({ workspaceRoot: tempDir(), env: env() });
    const tls = resolveCommand(
      servers.find((s) => s.id === 'typescript-language-server')!,
      ctx,
    )!;
    expect(tls.file).toBe(process.execPath);
    expect(tls.args).toEqual([path.join(packageDir('typescript-language-server')!, 'lib/cli.mjs'), '--stdio']);
    const py = resolveCommand(
      servers.find((s) => s.id === 'pyright')!,
      ctx,
    )!;
    expect(py.args[0]).toBe(path.join(packageDir('pyright')!, 'langserver.index.js'));
    expect(py.args[0]).not.toContain('.bin');
  });

  it('bare commands are searched on extraPath before PATH; PATH is prefixed; missing → undefined', () => {
    const dir = tempDir();
    const bin = path.join(dir, 'fake-ls');
    fs.writeFileSync(bin, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const servers = loadServers({ workspaceRoot: tempDir(), env: env() });
    const gopls = { ...servers.find((s) => s.id === 'gopls')!, command: 'fake-ls', extraPath: [dir] };
    const r = resolveCommand(gopls, ctx, { PATH: '/usr/bin' })!;
    expect(r.file).toBe(bin);
    expect(r.env.PATH).toBe(`${dir}${path.delimiter}/usr/bin`);
    expect(r.env.GOPROXY).toBe('off');
    expect(resolveCommand({ ...gopls, command: 'lspgate-not-installed' }, ctx, { PATH: '/usr/bin' })).toBeUndefined();
    // a ${packageDir} that is missing makes the server not installed
    expect(resolveCommand({ ...gopls, args: ['${packageDir:lspgate-no-such-package}'] }, ctx, { PATH: '/usr/bin' })).toBeUndefined();
  });

  it('a required program (gopls needs go) is searched like the command; the first missing one is named', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'go'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const gopls = loadServers({ workspaceRoot: tempDir(), env: env() }).find((s) => s.id === 'gopls')!;
    expect(gopls.requires).toEqual(['go']);
    expect(missingRequirement({ ...gopls, extraPath: [] }, ctx, { PATH: '/nonexistent' })).toBe('go');
    expect(missingRequirement({ ...gopls, extraPath: [dir] }, ctx, { PATH: '/nonexistent' })).toBeUndefined();
    expect(missingRequirement({ ...gopls, extraPath: [], requires: [] }, ctx, { PATH: '/nonexistent' })).toBeUndefined();
  });
});
