/**
 * The built `lspgate` command, spawned: help and version generated from the operation table,
 * `servers`, and the exit-status contract (2 for usage / INVALID_INPUT, 1 for other errors,
 * the code on stderr).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inputFields } from '../../src/frontends/input-fields.js';
import { operations } from '../../src/operations/registry.js';
import { assertBuilt, removeDir, REPO, runCli, tempDir, TS_APP } from '../helpers/spawn.js';

let cacheDir: string;

beforeAll(() => {
  assertBuilt();
  cacheDir = tempDir();
});

afterAll(() => removeDir(cacheDir));

describe('lspgate one-shot CLI', () => {
  it('--help lists every operation of the registry', async () => {
    const { code, stdout } = await runCli(['--help'], { cacheDir });
    expect(code).toBe(0);
    expect(stdout).toContain('lspgate mcp');
    expect(stdout).toContain('lspgate sidecar');
    for (const op of operations) expect(stdout).toContain(`  ${op.name} `);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await runCli(['--version'], { cacheDir });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(version);
  });

  it('<operation> --help lists the fields from the input schema', async () => {
    expect(operations.length).toBeGreaterThan(0);
    const op = operations[0]!;
    const { code, stdout } = await runCli([op.name, '--help'], { cacheDir });
    expect(code).toBe(0);
    expect(stdout).toContain(op.title);
    for (const f of inputFields(op)) expect(stdout).toContain(`--${f.name} <`);
  });

  it('an unknown operation exits 2 with UNKNOWN_OPERATION on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['no_such_operation'], { cacheDir });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^UNKNOWN_OPERATION: /);
  });

  it('an unknown flag exits 2 with INVALID_INPUT', async () => {
    const op = operations[0]!;
    const { code, stderr } = await runCli([op.name, '--definitely-not-a-field', 'x', '--root', TS_APP], { cacheDir });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: /);
  });

  it('a missing root exits 1 with FILE_NOT_FOUND', async () => {
    const op = operations[0]!;
    const { code, stderr } = await runCli([op.name, '--root', path.join(cacheDir, 'missing')], { cacheDir });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^FILE_NOT_FOUND: workspace root does not exist/);
  });

  it('servers --json lists the merged entries and whether each is installed', async () => {
    const { code, stdout } = await runCli(['servers', '--json', '--root', TS_APP], { cacheDir });
    expect(code).toBe(0);
    const list = (JSON.parse(stdout) as { servers: { id: string; installed: boolean; command?: string; install: string }[] }).servers;
    const tls = list.find((s) => s.id === 'typescript-language-server')!;
    expect(tls.installed).toBe(true);
    expect(tls.command).toContain('typescript-language-server');
    expect(list.map((s) => s.id)).toEqual(expect.arrayContaining(['pyright', 'intelephense', 'gopls']));
  });

  it('servers says a folder with no .lspgate config of its own has nothing to ignore', async () => {
    const { code, stdout } = await runCli(['servers', '--root', TS_APP], { cacheDir });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/: (trusted \(|not trusted, and it has no \.lspgate config of its own \(nothing to apply or ignore\))/);
    expect(stdout).not.toContain('read as data only');
  });

  it('servers marks an entry whose command does not resolve as not installed, with its install hint', async () => {
    const dir = tempDir();
    const extra = path.join(dir, 'servers.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      extra,
      JSON.stringify({
        servers: [{ id: 'ghost-ls', languages: ['ghost'], extensions: ['.ghost'], command: 'ghost-ls-not-on-path', install: 'apt install ghost' }],
      }),
    );
    try {
      const { code, stdout } = await runCli(['servers', '--root', TS_APP, '--servers', extra], { cacheDir });
      expect(code).toBe(0);
      expect(stdout).toContain('ghost-ls: NOT INSTALLED');
      expect(stdout).toContain('install: apt install ghost');
    } finally {
      removeDir(dir);
    }
  });

  it('a one-shot operation in its own process warms no server up to stop it at its exit (on demand unless set)', async () => {
    const own = tempDir();
    try {
      const args = ['index_folder', '--path', '.', '--root', TS_APP, '--daemon', 'off', '--json'];
      const r = await runCli(args, { cacheDir: own, env: { LSPGATE_LOG: 'debug', LSPGATE_SERVER_START: '' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('servers layer'); // the debug log is on
      expect(r.stderr).not.toMatch(/warm-up of|broker:typescript-language-server|verification:/);
    } finally {
      removeDir(own);
    }
  });
});
