import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { forgetOwnTunables, MALLOC_TUNABLES, NODE_FLAGS, withOwnTunables } from '../../src/link/node-memory.js';

const MAIN_SOURCE = path.resolve('src/cli/main.ts');
const MAIN = path.resolve('dist/src/cli/main.js');

describe("lspgate's own Node process", () => {
  it("is started by the bin's shebang with the flags and malloc tunables the daemon's launcher uses", () => {
    for (const file of [MAIN_SOURCE, MAIN]) {
      const shebang = readFileSync(file, 'utf8').split('\n')[0]!;
      expect(shebang).toBe(`#!/usr/bin/env -S GLIBC_TUNABLES=${MALLOC_TUNABLES} node ${NODE_FLAGS.join(' ')}`);
      // Linux kernels before 5.1 read 128 bytes of it
      expect(Buffer.byteLength(`${shebang}\n`)).toBeLessThanOrEqual(128);
    }
  });

  it('runs from its shebang line, the tunables in its environment and none in what it spawns', () => {
    // the shebang's command, as the kernel runs it; the script prints its own GLIBC_TUNABLES and its child's
    const [envBin, ...rest] = readFileSync(MAIN, 'utf8').split('\n')[0]!.slice(2).split(' ');
    const script = [
      `import { forgetOwnTunables } from ${JSON.stringify(path.resolve('dist/src/link/node-memory.js'))};`,
      "import { execFileSync } from 'node:child_process';",
      'const own = process.env.GLIBC_TUNABLES;',
      'forgetOwnTunables();',
      "const child = execFileSync(process.execPath, ['-p', 'process.env.GLIBC_TUNABLES ?? \"none\"'], { encoding: 'utf8' }).trim();",
      'process.stdout.write(JSON.stringify({ own, child, flags: process.execArgv.slice(0, ' + NODE_FLAGS.length + ') }));',
    ].join('\n');
    // `node` from PATH as the shebang finds it: put this test's Node first
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    delete env.GLIBC_TUNABLES;
    const r = spawnSync(envBin!, [rest.join(' '), '--input-type=module', '-e', script], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ own: MALLOC_TUNABLES, child: 'none', flags: NODE_FLAGS });
  });

  it("takes only lspgate's own tunables out of the environment", () => {
    const env: NodeJS.ProcessEnv = withOwnTunables({ PATH: '/bin' });
    expect(env).toEqual({ PATH: '/bin', GLIBC_TUNABLES: MALLOC_TUNABLES });
    forgetOwnTunables(env);
    expect(env).toEqual({ PATH: '/bin' });
    const users: NodeJS.ProcessEnv = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' };
    forgetOwnTunables(users);
    expect(users).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' });
  });
});
