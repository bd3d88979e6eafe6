/**
 * Hostile files to parse, for `npm run redteam`: one workspace (test/helpers/hostile-parse.ts) with a
 * real minified bundle, one line of 20,000 declarations, 100,000-deep nesting, a file over the user's
 * parse heap cap and a repository config raising maxFileBytes, through the one-shot CLI, MCP stdio (in
 * its own process and with the daemon running) and the sidecar: a row per break and front-end (the
 * break's files skipped with their reason or named as failed with a code), one for the other files'
 * answers, and one for the daemon being alive after all of them.
 */
import fs from 'node:fs';

import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import { judgeParse, parseCalls, parseWorld } from '../test/helpers/hostile-parse.js';
import { FRONTEND_NAMES, TRUST_VECTORS, trustFrontend } from '../test/helpers/hostile-trust.js';
import { CLI, isAlive, runCli, spawnNode, waitFor } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

export async function parseRows(): Promise<Line[]> {
  const w = parseWorld();
  const lines: Line[] = [];
  const daemon = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: w.env });
  try {
    await waitFor(() => fs.existsSync(daemonPaths(w.cacheDir, w.env).socket), 'the daemon socket', 60_000);
    for (const fe of FRONTEND_NAMES) {
      const t0 = performance.now();
      const answers = await trustFrontend(w, fe, (_v, root) => parseCalls(root))(TRUST_VECTORS[0]!, w.root).catch((e: unknown) => [`failed: ${String(e)}`]);
      const ms = Math.round(performance.now() - t0);
      for (const v of judgeParse(w, answers)) {
        lines.push({
          what: `hostile parse: ${v.what}`,
          frontend: fe,
          expected: 'skipped or failed with its reason, the rest answered',
          outcome: v.outcome,
          pass: v.pass,
          ms,
        });
      }
    }
    const alive = daemon.child.pid !== undefined && isAlive(daemon.child.pid);
    lines.push({
      what: 'hostile parse: the shared daemon after every front-end',
      frontend: 'daemon',
      expected: 'alive',
      outcome: alive ? 'alive' : 'GONE',
      pass: alive,
      ms: 0,
    });
  } finally {
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    const bound = setTimeout(() => daemon.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
    fs.rmSync(w.base, { recursive: true, force: true });
  }
  return lines;
}
