/**
 * The REPL's `.trace` through the daemon is bounded (trace-limit.ts): with LSPGATE_DAEMON_TRACE_MAX=3
 * the daemon the REPL starts sends at most 3 trace lines a second to it, and says how many it
 * dropped — the typescript-language-server's start alone is many more messages than that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DaemonWorld, daemonWorld } from '../helpers/daemon.js';
import { endWorld } from '../helpers/daemon-procs.js';
import { assertBuilt, CLI, type Spawned, spawnNode, TS_APP, waitFor } from '../helpers/spawn.js';

const TSLS = 'typescript-language-server';
const SYMBOLS = `.raw ${TSLS} textDocument/documentSymbol {"textDocument":{"uri":"src/util/strings.ts"}}`;
const PER_SECOND = 3;

describe('.trace through the daemon', () => {
  let w: DaemonWorld;
  let repl: Spawned;

  beforeAll(() => {
    assertBuilt();
    w = daemonWorld([], { LSPGATE_DAEMON_TRACE_MAX: String(PER_SECOND) });
    repl = spawnNode(CLI, ['repl', '--daemon', 'require', '--root', TS_APP], { cacheDir: w.cacheDir, env: w.env });
  });

  afterAll(async () => {
    if (repl.child.exitCode === null) repl.child.kill('SIGKILL');
    // the daemon's servers may still write under the world's directory after it was told to stop:
    // endWorld waits until no process of the world is left before removing it
    await endWorld(w);
  });

  it('sends at most the limit a second and says how many lines it dropped', async () => {
    const started = Date.now();
    repl.child.stdin!.write(['.trace on', SYMBOLS, "'sent'"].join('\n') + '\n');
    await waitFor(() => repl.stdout().includes("'sent'"), 'the raw answer', 180_000);
    await waitFor(() => /\[trace\] \d+ line\(s\) dropped/.test(repl.stdout()), 'the dropped count', 10_000);
    const out = repl.stdout();
    const seconds = (Date.now() - started) / 1000;
    expect(out).toContain('"name": "formatName"');
    const shown = out.split(`[trace ${TSLS}]`).length - 1;
    const dropped = [...out.matchAll(/\[trace\] (\d+) line\(s\) dropped \(the daemon sends at most 3 a second/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(PER_SECOND * Math.ceil(seconds + 1));
    expect(dropped).toBeGreaterThan(0);
  }, 240_000);
});
