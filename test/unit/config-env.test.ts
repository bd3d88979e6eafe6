/**
 * Which variables a daemon's answers depend on (src/link/config-env.ts), and the difference of two
 * clients' sets: names only, values hashed.
 */
import { describe, expect, it } from 'vitest';
import { configEnv, envDifference } from '../../src/link/config-env.js';

describe('configEnv', () => {
  it('keeps the LSPGATE_* settings, PATH, XDG_CONFIG_HOME and HOME, hashed; not the daemon’s own or unset ones', () => {
    const env = configEnv({
      LSPGATE_ALLOWED_ROOTS: '/srv/code',
      LSPGATE_EMBED_KEY: 'sk-secret',
      LSPGATE_DAEMON: 'require',
      LSPGATE_DAEMON_IDLE_MS: '5',
      LSPGATE_CACHE_DIR: '/c',
      LSPGATE_LOG: 'debug',
      LSPGATE_RESPONSE_CACHE: '',
      PATH: '/usr/bin',
      XDG_CONFIG_HOME: '/cfg',
      HOME: '/home/u',
      TERM: 'xterm',
    });
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LSPGATE_ALLOWED_ROOTS', 'LSPGATE_EMBED_KEY', 'PATH', 'XDG_CONFIG_HOME']);
    expect(JSON.stringify(env)).not.toContain('sk-secret');
    expect(env.PATH).toMatch(/^[0-9a-f]{16}$/);
  });

  it('names the variables set in one only or to another value', () => {
    const a = configEnv({ PATH: '/a', LSPGATE_ALLOWED_ROOTS: '/x', HOME: '/h' });
    const b = configEnv({ PATH: '/b', XDG_CONFIG_HOME: '/cfg', HOME: '/h' });
    expect(envDifference(a, b)).toEqual(['LSPGATE_ALLOWED_ROOTS', 'PATH', 'XDG_CONFIG_HOME']);
    expect(envDifference(a, a)).toEqual([]);
  });
});
