/**
 * `node dist/bench/daemon-reconnect.js --root DIR --tool NAME --args JSON [--cycles 5] [--grace-ms 20000]`:
 * one `lspgate mcp --http --daemon require` client (the real MCP SDK client over HTTP) on DIR,
 * with a private runtime and cache dir; each cycle the client's daemon is killed with SIGKILL — in
 * odd cycles while a call is in flight, in even ones with none, the next call sent as soon as the
 * daemon's pid is gone (the client may not have noticed yet) — then the client calls again. Prints per cycle: the daemon's process tree
 * size, how the in-flight call ended, how long the dead tree took to vanish (its language servers
 * end through their watchdogs), the processes that survived --grace-ms (must be 0), and the wall
 * time of the next call (reconnect + daemon start + cold server), beside the first call ever and a
 * warm call for scale; a next call that raced the dying daemon fails like a call in flight, and the
 * call after it is timed too. Exit status 1 if a process survived or that call failed as well.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import { daemonStatus, type DaemonWorld, stopDaemon } from '../test/helpers/daemon.js';
import { mcpHttpClient, worldProcesses } from '../test/helpers/daemon-procs.js';
import { errorOf, textOf } from '../test/helpers/mcp-client.js';
import { commandLine, descendants, waitGone } from '../test/helpers/spawn.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    tool: { type: 'string', default: 'get_file_outline' },
    args: { type: 'string', default: '{}' },
    cycles: { type: 'string', default: '5' },
    'grace-ms': { type: 'string', default: '20000' },
  },
});
if (!values.root) throw new Error('--root DIR is required');
const root = path.resolve(values.root);
const toolArgs = JSON.parse(values.args!) as Record<string, unknown>;
const cycles = Number(values.cycles);
const graceMs = Number(values['grace-ms']);

function world(): DaemonWorld {
  const base = mkdtempSync(path.join(os.tmpdir(), 'lspgate-reconnect-'));
  const run = path.join(base, 'run');
  const cacheDir = path.join(base, 'cache');
  mkdirSync(run, { mode: 0o700 });
  mkdirSync(cacheDir);
  const env = { XDG_RUNTIME_DIR: run, LSPGATE_DAEMON: 'require' };
  return { base, ws: root, cacheDir, env, socket: daemonPaths(cacheDir, env).socket };
}

type Call = { ms: number; ok: boolean; code?: string; reason?: unknown };
const outcome = (c: Call): string => (c.ok ? 'ok' : `${c.code}/${String(c.reason)}`);

async function main(): Promise<void> {
  const w = world();
  const h = await mcpHttpClient(w, root);
  const call = async (): Promise<Call> => {
    const t = performance.now();
    const r = await h.client.callTool({ name: values.tool!, arguments: toolArgs }, { timeout: 600_000 });
    const ms = Math.round(performance.now() - t);
    if (!r.isError) return { ms, ok: true };
    try {
      const e = errorOf(r);
      return { ms, ok: false, code: e.code, reason: (e.details as { reason?: unknown } | undefined)?.reason };
    } catch {
      return { ms, ok: false, code: textOf(r).slice(0, 80) };
    }
  };
  let failed = false;
  try {
    const first = await call();
    const warm = await call();
    process.stdout.write(
      `root ${root}, ${values.tool} ${values.args}\nfirst call (daemon + cold server) ${first.ms} ms ${outcome(first)}; warm ${warm.ms} ms ${outcome(warm)}\n`,
    );
    process.stdout.write('cycle | tree | in-flight call | tree gone ms | survivors | next call | call after a failed next\n');
    for (let i = 1; i <= cycles; i++) {
      const s = (await daemonStatus(w))!;
      const tree = [s.pid, ...descendants(s.pid)];
      // odd cycles: a call in flight at the kill; even ones: none, and the next call goes out as soon
      // as the daemon's pid is dead (a zombie: its other threads, holding the socket, may still be exiting)
      const inFlight = i % 2 === 1 ? call() : undefined;
      if (inFlight) await new Promise((r) => setTimeout(r, 20));
      const killedAt = performance.now();
      process.kill(s.pid, 'SIGKILL');
      const gone = waitGone(tree, graceMs).then((left) => ({ left, ms: Math.round(performance.now() - killedAt) }));
      const inflight = await inFlight;
      if (!inFlight) await waitGone([s.pid], graceMs);
      else await gone;
      const next = await call();
      // a call that raced the dying daemon fails like one in flight: the one after must answer
      const retry = next.ok ? undefined : await call();
      const { left, ms: goneMs } = await gone;
      const flightText = !inflight ? 'none' : inflight.ok ? `answered (${inflight.ms} ms)` : outcome(inflight);
      const retryText = retry ? `${retry.ms} ms ${outcome(retry)}` : '-';
      process.stdout.write(
        `${i} | ${tree.length} | ${flightText} | ${left.length ? 'NaN' : goneMs} | ${left.length} | ${next.ms} ms ${outcome(next)} | ${retryText}\n`,
      );
      for (const pid of left) process.stdout.write(`  survivor ${pid}: ${commandLine(pid).slice(0, 160)}\n`);
      if (left.length || (retry && !retry.ok)) failed = true;
    }
  } finally {
    await h.client.close().catch(() => undefined);
    h.proc.child.kill('SIGTERM');
    await h.proc.exited;
    await stopDaemon(w);
    const left = await waitGone(
      worldProcesses(w).map((p) => p.pid),
      graceMs,
    );
    process.stdout.write(`after lspgate daemon stop: ${left.length} process(es) of the run left\n`);
    if (left.length) failed = true;
    rmSync(w.base, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main();
