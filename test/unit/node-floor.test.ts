import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { meetsFloor, NODE_FLOOR, packagedNode } from '../../src/link/node-floor.js';

const MAIN = path.resolve('dist/src/cli/main.js');
/** A Node below the floor to start lspgate with: this machine's system Node 20, when it has one. */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
  if (!existsSync(p)) return false;
  const v = spawnSync(p, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  return v !== '' && !meetsFloor(v);
});

describe('the Node floor', () => {
  it('compares versions against 22.13', () => {
    expect(NODE_FLOOR).toBe('22.13.0');
    for (const v of ['22.13.0', '22.13.1', '22.20.0', '24.0.0', '25.1.2']) expect(meetsFloor(v)).toBe(true);
    for (const v of ['20.20.2', '22.12.9', '22.0.0', '18.30.0']) expect(meetsFloor(v)).toBe(false);
  });

  it('finds the packaged Node of the optional dependency, at or above the floor', () => {
    const node = packagedNode();
    expect(node).toBeDefined();
    const v = spawnSync(node!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(meetsFloor(v)).toBe(true);
  });

  it.skipIf(!OLD_NODE)('re-runs the lspgate command on the packaged Node from an older Node', () => {
    const version = spawnSync(OLD_NODE!, [MAIN, '--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // a script run through floor-run says which Node and which flags it got
    const dir = mkdtempSync(path.join(tmpdir(), 'lspgate-floor-'));
    const script = path.join(dir, 'probe.mjs');
    writeFileSync(script, "process.stdout.write(process.versions.node + ' ' + process.execArgv.join(','))");
    const probe = spawnSync(OLD_NODE!, ['--max-semi-space-size=2', 'dist/src/cli/floor-run.js', script], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(probe.status).toBe(0);
    const [ran, flags] = probe.stdout.split(' ');
    expect(meetsFloor(ran)).toBe(true);
    expect(flags).toBe('--max-semi-space-size=2');
  });

  it.skipIf(!OLD_NODE)('says what is missing when no packaged Node is there', () => {
    const r = spawnSync(OLD_NODE!, [MAIN, '--version'], { encoding: 'utf8', env: { ...process.env, LSPGATE_NODE: '/nonexistent/node' } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Node >= 22\.13\.0 is needed .*node-linux-/);
  });
});
