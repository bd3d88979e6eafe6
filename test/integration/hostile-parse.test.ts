/**
 * Every file shape that took the shared daemon, through every spawned front-end: one workspace
 * (test/helpers/hostile-parse.ts) holds a real minified bundle (d3.min.js), one line of 20,000
 * declarations, 100,000-deep nesting in three languages, a file over the user's parse heap cap, and
 * a repository config that tries to raise maxFileBytes over a file larger than the user's limit.
 * The one-shot CLI, `lspgate mcp` on stdio in its own process, `lspgate mcp` with the user's daemon
 * running, and the sidecar each index it, search another file's symbol, outline another file, and
 * ask for the bundle's outline (test/helpers/hostile-parse.ts judgeParse, shared with the red team).
 * Each break is answered: its files are skipped with their reason (minified, larger than the user's
 * limit) or named with a code in a `partial` index (deep nesting may also be cataloged: walks are
 * bounded, not refused), the other files answer, the repository's limit is ignored with its
 * warning, and every process (the daemon included) is alive after. Before bounded parsing these files
 * aborted V8, overflowed the stack, or held every client of the daemon for minutes.
 * The inputs are far over every bound on any machine (a 32 MB heap against 150,000 methods; minified
 * shape and size are not timing): nothing here is timed.
 */
import fs from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonPaths } from '../../src/frontends/daemon-client/socket-dir.js';
import { judgeParse, parseCalls, type ParseWorld, parseWorld, REPO_LIMITS, USER_LIMITS } from '../helpers/hostile-parse.js';
import { FRONTEND_NAMES, TRUST_VECTORS, trustFrontend } from '../helpers/hostile-trust.js';
import { assertBuilt, CLI, isAlive, runCli, type Spawned, spawnNode, waitFor } from '../helpers/spawn.js';

let w: ParseWorld;
let daemon: Spawned | undefined;

beforeAll(async () => {
  assertBuilt();
  w = parseWorld();
  daemon = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: w.env });
  await waitFor(() => fs.existsSync(daemonPaths(w.cacheDir, w.env).socket), 'the daemon socket', 60_000);
}, 120_000);

afterAll(async () => {
  if (daemon) {
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    const bound = setTimeout(() => daemon!.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
  }
  if (w) fs.rmSync(w.base, { recursive: true, force: true });
}, 60_000);

const FRONTENDS_LIST: [string][] = FRONTEND_NAMES.map((n) => [n]);

describe('hostile files to parse, through each spawned front-end', () => {
  it.each(FRONTENDS_LIST)(
    'through the %s: each break is answered, the other files answer, the process lives',
    async (name) => {
      // the front-end helpers take a vector; the parse calls do not use it
      const answers = await trustFrontend(w, name, (_v, root) => parseCalls(root))(TRUST_VECTORS[0]!, w.root);
      const verdicts = judgeParse(w, answers);
      process.stderr.write(`[hostile-parse] ${name}: ${verdicts.map((v) => `${v.what}: ${v.outcome}`).join(' | ')}\n`);
      expect(
        verdicts.filter((v) => !v.pass),
        `${JSON.stringify(verdicts, null, 1)}\n${answers[0]!.slice(0, 3000)}`,
      ).toEqual([]);
      expect(verdicts.map((v) => v.what)).toEqual([...w.breaks.map((b) => b.name), expect.stringContaining('other files') as unknown as string]);
      expect(REPO_LIMITS.maxFileBytes).toBeGreaterThan(USER_LIMITS.maxFileBytes);
      // the daemon lived through the calls of every front-end before and this one
      expect(isAlive(daemon!.child.pid!)).toBe(true);
    },
    600_000,
  );
});
