#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=131072 node --max-semi-space-size=2
// The young-generation cap is set here because V8 takes it only on the command line: the catalog
// build's garbage peaked at 151 MB RSS on a 500-file workspace, 126 MB with a cap of 4 MB
// (bench/profile-warm); under 8 HTTP clients (npm run soak:http) lspgate peaked at 152-157 MB with
// 4 and 146-151 MB with 2, for the same CPU. The malloc tunables are lspgate's own (src/link/node-memory.ts):
// forgetOwnTunables takes them out of what the language servers inherit.
/**
 * The `lspgate` entry. It imports only node builtins, src/cli/thin and src/link (a dependency-cruiser rule):
 * what needs no workspace (--version, --help, daemon status…) is answered here (thin/local.ts); a
 * call the shared daemon can serve — `mcp` on stdio, `sidecar`, a one-shot operation — is a thin
 * client of it (thin/plan.ts says which), and Node loads nothing else. Every other call, and any
 * thin call the daemon refuses, loads the full CLI (full-main.ts, bundled by the build: link/full-cli.ts).
 */
import { enableCodeCache } from '../link/code-cache.js';
import { runOnFloor } from '../link/node-floor.js';
import { forgetOwnTunables } from '../link/node-memory.js';
import { commandFirst } from './thin/argv.js';
import { localAnswer } from './thin/local.js';

// Below Node 22.13 the same command re-runs on the packaged Node (src/link/node-floor.ts).
// (an older Node passes the tunables on to the packaged one through its environment)
if (runOnFloor(import.meta.url, process.argv.slice(2))) {
  forgetOwnTunables();
  enableCodeCache();
  const argv = commandFirst(process.argv.slice(2));
  const local = await localAnswer(argv);
  if (local) {
    process.exitCode = local.exit_code;
    if (local.stderr) process.stderr.write(local.stderr);
    process.stdout.write(local.stdout);
  } else {
    // loaded only now: --version and --help need none of the daemon client's modules
    const { thinPlan } = await import('./thin/plan.js');
    const { runThin } = await import('./thin/thin-client.js');
    const plan = thinPlan(argv);
    // the bundle of the full CLI when the build made one (src/link/full-cli.ts); --version and --help load neither
    if (!plan || !(await runThin(plan))) await import((await import('../link/full-cli.js')).fullCliUrl());
  }
}
