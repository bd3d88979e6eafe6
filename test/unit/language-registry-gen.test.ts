// The generated language registry (scripts/gen-language-registry.mjs, run by `npm run build`, checked by
// `npm run lint:registry`): the committed modules are what the generator writes from this checkout; on
// a copy of the adapter folders it lists a folder added with a profile or an adapter module (under servers/), `--check`
// names the stale module, and a shipped server naming an adapter no folder provides stops the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { shippedServers } from '../../src/adapters/index.js';
import { REPO } from '../helpers/spawn.js';

const script = path.join(REPO, 'scripts/gen-language-registry.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-registry-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function generate(...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [script, '--root', root, ...args], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

const read = (name: string): string => fs.readFileSync(path.join(root, 'src/adapters', name), 'utf8');

describe('the generated language registry', () => {
  it('is committed as the generator writes it from this checkout', () => {
    const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it("lists the shipped servers.json's servers with their adapters", () => {
    const { servers } = JSON.parse(fs.readFileSync(path.join(REPO, 'servers.json'), 'utf8')) as { servers: { id: string; adapter?: string }[] };
    expect(shippedServers().map((s) => [s.id, s.adapter])).toEqual(servers.map((s) => [s.id, s.adapter ?? 'generic']));
  });

  it('lists a folder added with a profile and an adapter module; --check names the stale modules until it runs', () => {
    fs.cpSync(path.join(REPO, 'src/adapters'), path.join(root, 'src/adapters'), { recursive: true });
    fs.cpSync(path.join(REPO, 'servers.json'), path.join(root, 'servers.json'));
    expect(generate('--check').status).toBe(0);
    fs.mkdirSync(path.join(root, 'src/adapters/zig-lang'));
    fs.writeFileSync(path.join(root, 'src/adapters/zig-lang/profile.ts'), 'export {};\n');
    fs.mkdirSync(path.join(root, 'src/adapters/servers/zig-lang'));
    fs.writeFileSync(path.join(root, 'src/adapters/servers/zig-lang/adapter.ts'), 'export {};\n');

    const stale = generate('--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('src/adapters/profiles.generated.ts, src/adapters/adapters.generated.ts differ');
    expect(generate()).toEqual({ status: 0, stderr: '' });
    expect(read('profiles.generated.ts')).toContain("import * as zigLangProfiles from './zig-lang/profile.js';");
    expect(read('profiles.generated.ts')).toMatch(/rustProfiles,\n\s+typescriptProfiles,\n\s+zigLangProfiles,\n\];/);
    expect(read('adapters.generated.ts')).toContain("'zig-lang': zigLangAdapter");
    expect(generate('--check').status).toBe(0);
  });

  it('refuses a shipped server whose adapter no folder provides', () => {
    const file = path.join(root, 'servers.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { servers: { adapter?: string }[] };
    config.servers[0]!.adapter = 'typescrpt';
    fs.writeFileSync(file, JSON.stringify(config));
    const r = generate();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/server typescript-language-server names adapter typescrpt, and no src\/adapters\/servers\/typescrpt\/adapter\.ts exists/);
  });
});
