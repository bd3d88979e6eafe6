/**
 * The `lspgate` command loads its full CLI from the bundle the build makes (scripts/bundle.mjs,
 * src/link/full-cli.ts), answers as the compiled modules do, and never runs a bundle older than them.
 * What a process loaded is read by a module hook given through NODE_OPTIONS.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, removeDir, REPO, runCli, tempDir, TS_APP } from '../helpers/spawn.js';

const BUNDLE = path.join(REPO, 'dist/bundle/full-main.js');
const MODULES = path.join(REPO, 'dist/src/cli/full-main.js');
let dir: string;
let hook: string;

beforeAll(() => {
  assertBuilt();
  dir = tempDir('lspgate-bundle-');
  hook = path.join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    `import { registerHooks } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregisterHooks({ load(url, ctx, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, ctx); } });\n`,
  );
});

afterAll(() => removeDir(dir));

/** A one-shot call with --daemon off; its answer and the module URLs its process loaded. */
async function call(args: string[], name: string, env: Record<string, string> = {}): Promise<{ stdout: string; loaded: string[] }> {
  const log = path.join(dir, `${name}.log`);
  writeFileSync(log, '');
  const r = await runCli([...args, '--root', TS_APP, '--daemon', 'off', '--json'], {
    cacheDir: path.join(dir, `cache-${name}`),
    env: { NODE_OPTIONS: `--import=${hook}`, LOADED_LOG: log, ...env },
  });
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const fromGateway = (loaded: string[]) => loaded.filter((u) => u.includes('/dist/src/gateway/'));

describe.skipIf(!statSync(BUNDLE, { throwIfNoEntry: false }))('the bundled full CLI', () => {
  it('is what a call loads, and answers as the compiled modules do', async () => {
    const ops: string[][] = [
      ['search_symbols', '--query', 'formatName'],
      ['get_file_outline', '--file', 'src/util/strings.ts'],
      ['find_definition', '--symbol', 'formatName'],
    ];
    for (const [i, op] of ops.entries()) {
      const bundled = await call(op, `b${i}`);
      const modules = await call(op, `m${i}`, { LSPGATE_BUNDLE: 'off' });
      expect(bundled.loaded.some((u) => u.endsWith('/dist/bundle/full-main.js'))).toBe(true);
      expect(fromGateway(bundled.loaded)).toEqual([]);
      expect(fromGateway(modules.loaded).length).toBeGreaterThan(0);
      const strip = (s: string) => s.replace(/"(timing_ms|total_tokens_saved|tokens_saved)":\s*[\d.]+/g, '');
      expect(strip(bundled.stdout)).toEqual(strip(modules.stdout));
    }
  }, 300_000);

  it('is not loaded when the compiled modules are newer (a tsc after the build)', async () => {
    const was = statSync(BUNDLE);
    try {
      utimesSync(BUNDLE, was.atime, new Date(statSync(MODULES).mtimeMs - 60_000));
      const r = await call(['get_file_outline', '--file', 'src/util/strings.ts'], 'stale');
      expect(r.loaded.some((u) => u.includes('/dist/bundle/'))).toBe(false);
      expect(fromGateway(r.loaded).length).toBeGreaterThan(0);
    } finally {
      utimesSync(BUNDLE, was.atime, was.mtime);
    }
  }, 120_000);
});
