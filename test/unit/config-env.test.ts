/**
 * What a client sends with its attach (src/link/config-env.ts) and how the daemon compares it
 * (src/daemon/env-check.ts): lspgate's settings and the user's config files must be equal; each
 * enabled server must resolve the same command and programs on the client's PATH and see the same
 * values of the variables it reads. Names only in the differences, values hashed.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ServerEntrySchema } from '../../src/config/schema.js';
import { envDifferences } from '../../src/daemon/env-check.js';
import { attachEnvironment, envDifference } from '../../src/link/config-env.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'lspgate-env-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bin(dir: string, name: string): string {
  mkdirSync(path.join(base, dir), { recursive: true });
  const file = path.join(base, dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return path.join(base, dir);
}

const entry = ServerEntrySchema.parse({
  id: 'demo',
  languages: ['demo'],
  extensions: ['.demo'],
  command: 'demo-server',
  runsPrograms: ['demo-helper'],
  readsEnv: ['DEMO_MODE', 'DEMO_FIXED'],
  env: { DEMO_FIXED: 'always' },
  install: 'none',
});

describe('attachEnvironment', () => {
  it("splits lspgate's settings from the other variables, hashed; leaves out the daemon's own and unset ones", () => {
    const env = attachEnvironment({
      LSPGATE_ALLOWED_ROOTS: '/srv/code',
      LSPGATE_EMBED_KEY: 'sk-secret',
      LSPGATE_DAEMON: 'require',
      LSPGATE_DAEMON_SERVER_IDLE_MS: '5',
      LSPGATE_CODE_CACHE: 'off',
      LSPGATE_BUNDLE: 'off',
      LSPGATE_CACHE_DIR: '/c',
      LSPGATE_RESPONSE_CACHE: '',
      PATH: '/usr/bin',
      XDG_CONFIG_HOME: path.join(base, 'cfg'),
      TERM: 'xterm',
    });
    expect(Object.keys(env.settings).sort()).toEqual(['LSPGATE_ALLOWED_ROOTS', 'LSPGATE_EMBED_KEY']);
    expect(Object.keys(env.variables).sort()).toEqual(['PATH', 'TERM', 'XDG_CONFIG_HOME']);
    expect(JSON.stringify(env)).not.toContain('sk-secret');
    expect(env.variables.TERM).toMatch(/^[0-9a-f]{16}$/);
    expect(env.path).toBe('/usr/bin');
    expect(env.user_files).toEqual({ 'servers.json': '', 'config.json': '' });
    mkdirSync(path.join(base, 'cfg', 'lspgate'), { recursive: true });
    writeFileSync(path.join(base, 'cfg', 'lspgate', 'servers.json'), '{"servers":[]}');
    expect(attachEnvironment({ XDG_CONFIG_HOME: path.join(base, 'cfg') }).user_files['servers.json']).toMatch(/^[0-9a-f]{16}$/);
  });

  it('names the variables set in one only or to another value', () => {
    expect(envDifference({ A: '1', B: '2' }, { B: '3', C: '4' })).toEqual(['A', 'B', 'C']);
    expect(envDifference({ A: '1' }, { A: '1' })).toEqual([]);
  });
});

describe('envDifferences', () => {
  const servers = bin('servers', 'demo-server');
  const helpers = bin('helpers', 'demo-helper');
  const other = bin('other', 'demo-helper');
  const daemon = attachEnvironment({ PATH: `${servers}:${helpers}:/usr/bin`, DEMO_MODE: 'fast' });
  const differs = (env: NodeJS.ProcessEnv) => envDifferences(attachEnvironment(env), daemon, [entry], base);

  it('shares where no server would differ: a duplicate PATH entry, a directory without its programs, a variable it does not read', () => {
    expect(differs({ PATH: `${servers}:${helpers}:/usr/bin:${servers}`, DEMO_MODE: 'fast' })).toBeUndefined();
    expect(differs({ PATH: `${base}:${servers}:/nonexistent:${helpers}:/usr/bin`, DEMO_MODE: 'fast', UNRELATED: 'x' })).toBeUndefined();
    // a variable the entry sets itself is the same for everyone
    expect(differs({ PATH: `${servers}:${helpers}`, DEMO_MODE: 'fast', DEMO_FIXED: 'mine' })).toBeUndefined();
  });

  it('refuses where the server would differ: another program found first, one not found, a variable it reads', () => {
    expect(differs({ PATH: `${servers}:${other}:${helpers}`, DEMO_MODE: 'fast' })?.servers).toEqual([
      {
        server: 'demo',
        differs: [`program demo-helper: ${path.join(other, 'demo-helper')} for this client, ${path.join(helpers, 'demo-helper')} for the daemon`],
      },
    ]);
    expect(differs({ PATH: `${helpers}`, DEMO_MODE: 'fast' })?.servers[0]!.differs).toEqual([
      `command: (not found) for this client, ${path.join(servers, 'demo-server')} for the daemon`,
    ]);
    const byVariable = differs({ PATH: `${servers}:${helpers}`, DEMO_MODE: 'secret-value' });
    expect(byVariable?.servers).toEqual([{ server: 'demo', differs: ['variable DEMO_MODE'] }]);
    expect(JSON.stringify(byVariable)).not.toContain('secret-value');
  });

  it('refuses another lspgate setting or another user config file, and leaves disabled servers out', () => {
    expect(differs({ PATH: `${servers}:${helpers}`, DEMO_MODE: 'fast', LSPGATE_MAX_RESULTS: '5' })?.variables).toEqual(['LSPGATE_MAX_RESULTS']);
    expect(differs({ PATH: `${servers}:${helpers}`, DEMO_MODE: 'fast', XDG_CONFIG_HOME: path.join(base, 'cfg') })?.files).toEqual(['servers.json']);
    const off = { ...entry, enabled: false };
    expect(envDifferences(attachEnvironment({ PATH: '', DEMO_MODE: 'x' }), daemon, [off], base)).toBeUndefined();
  });
});
