/**
 * The MCP tool list from config: the user's `"tools"` (default: the default profile) wins; a
 * repository's `.lspgate/config.json` may narrow it, never widen it, unless the user trusted the
 * folder (`lspgate trust`). Keys only the user may set (`trustedFolders`, `allowedRoots`) are named
 * when a repository sets them.
 */
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { setTrust, userOnlyKeyWarnings } from '../../src/config/trust.js';
import { configuredTools, profileTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { tempJsonFiles } from '../helpers/temp-json.js';

const { tempDir, write } = tempJsonFiles('lspgate-profile-');

const CORE = profileTools('core', operations).sort();
const DEFAULT = profileTools('default', operations).sort();

/** A repository and a user config home, each with its own config.json (undefined: no file). */
function world(user: unknown, repo: unknown): { root: string; env: NodeJS.ProcessEnv } {
  const root = tempDir();
  const env = { PATH: process.env.PATH, XDG_CONFIG_HOME: tempDir() };
  if (user !== undefined) write(path.join(env.XDG_CONFIG_HOME, 'lspgate', 'config.json'), user);
  if (repo !== undefined) write(path.join(root, '.lspgate', 'config.json'), repo);
  return { root, env };
}

describe("the user's tool profile wins over the repository's", () => {
  it('"all" in the repository over "core" in the user config lists core, with a warning naming the widening and lspgate trust', () => {
    const { root, env } = world({ tools: 'core' }, { tools: 'all' });
    const r = configuredTools(root, operations, env);
    expect([...r.tools].sort()).toEqual(CORE);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('.lspgate/config.json "tools" "all"');
    expect(r.warnings[0]).toContain('rename_symbol');
    expect(r.warnings[0]).toContain(`lspgate trust ${root}`);
  });

  it('a list naming tools beyond the profile keeps only those inside it', () => {
    const { root, env } = world({ tools: 'core' }, { tools: ['find_definition', 'delete_symbol', 'index_repo'] });
    const r = configuredTools(root, operations, env);
    expect([...r.tools]).toEqual(['find_definition']);
    expect(r.warnings[0]).toMatch(/delete_symbol, index_repo not listed/);
  });

  it('a list entirely outside the profile leaves the user profile', () => {
    const { root, env } = world({ tools: 'core' }, { tools: ['move_file'] });
    const r = configuredTools(root, operations, env);
    expect([...r.tools].sort()).toEqual(CORE);
    expect(r.warnings[0]).toContain('move_file not listed');
  });

  it('without a user setting the default profile bounds the repository: "all" lists the default tools, "core" narrows', () => {
    const wide = world(undefined, { tools: 'all' });
    const r = configuredTools(wide.root, operations, wide.env);
    expect([...r.tools].sort()).toEqual(DEFAULT);
    expect(r.warnings[0]).toContain(`beyond the user's profile "default"`);
    const narrow = world(undefined, { tools: 'core' });
    const n = configuredTools(narrow.root, operations, narrow.env);
    expect([...n.tools].sort()).toEqual(CORE);
    expect(n.warnings).toEqual([]);
  });

  it('a folder the user trusts chooses its own list', () => {
    const { root, env } = world({ tools: 'core' }, { tools: 'all' });
    setTrust(root, true, env);
    const r = configuredTools(root, operations, env);
    expect([...r.tools].sort()).toEqual(profileTools('all', operations).sort());
    expect(r.warnings).toEqual([]);
  });

  it('the user setting alone, and none at all', () => {
    const user = world({ tools: 'all' }, undefined);
    expect([...configuredTools(user.root, operations, user.env).tools].sort()).toEqual(profileTools('all', operations).sort());
    const none = world(undefined, undefined);
    expect([...configuredTools(none.root, operations, none.env).tools].sort()).toEqual(DEFAULT);
  });

  it('trustedFolders and allowedRoots in a repository config are named as ignored', () => {
    const { root, env } = world(undefined, { trustedFolders: ['/'], allowedRoots: ['/'], limits: {} });
    const w = userOnlyKeyWarnings(root, env);
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/ignored \.lspgate\/config\.json "trustedFolders": only the user's config/);
    expect(w[1]).toMatch(/"allowedRoots"/);
    expect(w[0]).toContain(`lspgate trust ${root}`);
  });
});
