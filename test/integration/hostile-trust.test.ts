/**
 * Workspace trust through the spawned front-ends: for each vector a repository's own `.lspgate`
 * config carries (a server's env, command, args, extraPath, a `${root}` expansion, a TypeScript SDK
 * path in initializationOptions, a raised maxFileBytes), the one-shot CLI, `lspgate mcp` on stdio,
 * `lspgate mcp` while the user's daemon runs, and the sidecar each index, search, ask a definition,
 * references and diagnostics: the planted program never runs (its marker file never appears), the
 * limit stays the user's, and the answers name the ignored setting and `lspgate trust <root>`. Then
 * the same folder, trusted with `lspgate trust`, runs what it configures and says so.
 */
import fs from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonPaths } from '../../src/frontends/daemon-client/socket-dir.js';
import { FRONTEND_NAMES, hostileFolder, markerExists, tooLarge, TRUST_VECTORS, trustFrontend, type TrustWorld, trustWorld } from '../helpers/hostile-trust.js';
import { assertBuilt, CLI, runCli, type Spawned, spawnNode, waitFor } from '../helpers/spawn.js';

let w: TrustWorld;
let daemon: Spawned | undefined;
const roots = new Map<string, string>();

beforeAll(async () => {
  assertBuilt();
  w = trustWorld();
  for (const v of TRUST_VECTORS) roots.set(v.name, hostileFolder(w, v));
  daemon = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_LOG: 'info' } });
  const socket = daemonPaths(w.cacheDir, w.env).socket;
  await waitFor(() => fs.existsSync(socket), 'the daemon socket', 60_000);
}, 90_000);

afterAll(async () => {
  if (daemon) {
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    const bound = setTimeout(() => daemon!.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
  }
  fs.rmSync(w.base, { recursive: true, force: true });
}, 60_000);

// the front-ends close over the world made in beforeAll
const FRONTENDS_LIST: [string, string][] = FRONTEND_NAMES.map((n) => [n, n]);

describe.each(TRUST_VECTORS)('a repository config setting $name', (v) => {
  it.each(FRONTENDS_LIST)(
    'untrusted, through the %s: nothing of the repository runs, and the answers say how to trust',
    async (name) => {
      const root = roots.get(v.name)!;
      const answers = await trustFrontend(w, name)(v, root);
      const all = answers.join('\n');
      expect(markerExists(w, v), all.slice(0, 4000)).toBe(false);
      if (v.kind === 'limit') expect(tooLarge(answers[0]!), answers[0]).toBe(true);
      // every answer of the workspace warns: the index, the semantic calls
      const warned = answers.filter((a) => a.includes(v.setting) && a.includes(`lspgate trust ${root}`));
      expect(warned.length, all.slice(0, 4000)).toBeGreaterThanOrEqual(answers.length - 1);
    },
    300_000,
  );

  it('trusted with `lspgate trust`, the folder runs its configured server and says so', async () => {
    const root = roots.get(v.name)!;
    const trust = await runCli(['trust', root], { cacheDir: w.cacheDir, env: w.env });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(`trusted: ${root}`);
    const servers = await runCli(['servers', '--root', root], { cacheDir: w.cacheDir, env: w.env });
    expect(servers.stdout).toContain(`${root}: trusted`);
    const index = await runCli(['index_folder', '--root', root, '--json', '--path', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    expect(index.stdout + index.stderr).toContain('applied in full');
    if (v.kind === 'limit') expect(tooLarge(index.stdout), index.stdout).toBe(false);
    else {
      await runCli(['find_definition', '--root', root, '--json', '--file', v.file, '--line', '1', '--column', '1'], {
        cacheDir: w.cacheDir,
        env: w.env,
        cwd: root,
      });
      expect(markerExists(w, v)).toBe(true);
    }
    const untrust = await runCli(['untrust', root], { cacheDir: w.cacheDir, env: w.env });
    expect(untrust.stdout).toContain(`untrusted: ${root}`);
  }, 300_000);
});

describe('lspgate servers on an untrusted folder', () => {
  it('says it is not trusted and lists what it ignored', async () => {
    const root = roots.get('env')!;
    const r = await runCli(['servers', '--root', root], { cacheDir: w.cacheDir, env: w.env });
    expect(r.stdout).toContain(`${root}: not trusted`);
    expect(r.stdout).toContain('ignored: .lspgate/servers.json servers[fault].env');
    expect(r.stdout).toContain(`lspgate trust ${root}`);
  }, 60_000);
});
