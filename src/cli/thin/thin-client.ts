/**
 * The thin client: when thinPlan allows it, this process only talks to the daemon — one
 * `lspgate/attach` (with `relay` for mcp and sidecar, whose front-end then runs in the daemon on
 * this client's view while this process pipes stdin to the socket and the socket to stdout), or a
 * plain attach and one `lspgate/cli` call whose answer is the one-shot's stdout, stderr and exit
 * code. Light floor: node builtins only. A bad `mcp --tools` (plan kind usage) is the full CLI's
 * error, exit 2, with no daemon reached. Any refusal or oddity before the pipe starts (no daemon
 * and it would not start, another version, a root the daemon refuses) returns
 * false: the full CLI then runs and does what docs/front-ends.md says (restart on version skew, auto's
 * fallback to in-process, require's errors, usage errors with exit 2). A one-shot call once sent is
 * never handed to the full CLI: the daemon may have run part of it (an apply).
 */
import type net from 'node:net';

import { attachEnvironment } from '../../link/config-env.js';
import type { JsonRpcReply } from '../../link/frame.js';
import { describeJournals, journalSummaries } from '../../link/journals.js';
import { checkCacheDir, type DaemonPaths, daemonPaths, defaultCacheDir, ensurePrivateDir, packageVersion } from '../../link/paths.js';
import { progressLine } from '../../link/progress-line.js';
import { connect, startDaemon, waitForDaemon } from '../../link/start.js';
import { relayMcp } from './mcp-relay.js';
import type { ThinPlan } from './plan.js';
import { call, callWithNotifications } from './rpc.js';
import { SidecarWatch } from './sidecar-watch.js';

const START_TIMEOUT_MS = 30_000;

async function reach(paths: DaemonPaths): Promise<net.Socket | undefined> {
  try {
    // an unsafe cache dir (another user's, writable by others) is refused by the full CLI, with its code
    checkCacheDir(defaultCacheDir());
    ensurePrivateDir(paths.dir);
    const socket = await connect(paths.socket);
    if (socket) return socket;
    startDaemon(paths);
    return await waitForDaemon(paths, START_TIMEOUT_MS);
  } catch {
    return undefined;
  }
}

/** Runs `plan` through the daemon; false when the full CLI must take over (nothing was written). */
export async function runThin(plan: ThinPlan): Promise<boolean> {
  if (plan.kind === 'usage') {
    process.stderr.write(plan.stderr, () => process.exit(2));
    return true;
  }
  const paths = daemonPaths(defaultCacheDir());
  const socket = await reach(paths);
  if (!socket) return false;
  const attach = {
    version: packageVersion(),
    // a one-shot call's view is made per call from its own --root (which may not exist: the call says so)
    root: plan.kind === 'cli' ? process.cwd() : plan.root,
    frontend: plan.kind === 'relay' ? plan.relay : 'cli',
    pid: process.pid,
    environment: attachEnvironment(),
    ...(plan.kind === 'relay' ? { relay: plan.relay, ...(plan.tools !== undefined ? { tools: plan.tools } : {}) } : {}),
  };
  const attached = await call(socket, 1, 'lspgate/attach', attach);
  if (!attached || attached.reply.error) return refuse(socket);
  if (plan.kind === 'relay' && plan.relay === 'mcp') {
    const journalsOf = (pid: number | undefined) => (pid === undefined ? [] : journalSummaries(defaultCacheDir(), { pid }));
    relayMcp(
      socket,
      attached.rest,
      async () => {
        // A daemon killed a moment ago may still accept a connection it then drops: try a few times.
        for (let attempt = 0; attempt < 5; attempt++) {
          if (attempt) await new Promise((r) => setTimeout(r, 300));
          // no daemon and none would start (reach waited for it): give up
          const again = await reach(paths);
          if (!again) return undefined;
          const reply = await call(again, 1, 'lspgate/attach', attach);
          if (reply && !reply.reply.error) return { socket: again, rest: reply.rest, pid: pidOf(reply.reply) };
          again.destroy();
          if (reply?.reply.error) {
            // e.g. a daemon another client started under another environment (env_differs)
            process.stderr.write(`lspgate: the new daemon refused this client: ${reply.reply.error.message}\n`);
            return undefined;
          }
        }
        return undefined;
      },
      pidOf(attached.reply),
      journalsOf,
    );
    return true;
  }
  if (plan.kind === 'relay') {
    pipeSidecar(socket, attached.rest);
    return true;
  }
  // progress only on a terminal (as the CLI in its own process): what the call waits for, while it waits
  const progress = process.stderr.isTTY === true;
  const answer = progress
    ? await callWithNotifications(socket, 2, 'lspgate/cli', { argv: plan.argv, cwd: process.cwd(), progress }, printProgress)
    : await call(socket, 2, 'lspgate/cli', { argv: plan.argv, cwd: process.cwd() });
  // The daemon may have run part of the call (an apply half-written): never run it again here.
  if (!answer) return daemonDiedMidCall(socket, pidOf(attached.reply));
  const out = answer.reply.result as { stdout?: unknown; stderr?: unknown; exit_code?: unknown } | undefined;
  if (!out || typeof out.stdout !== 'string' || typeof out.stderr !== 'string' || typeof out.exit_code !== 'number') return refuse(socket);
  socket.destroy();
  const code = out.exit_code;
  process.stderr.write(out.stderr);
  process.stdout.write(out.stdout, () => process.exit(code));
  return true;
}

/** A `$/progress` notification of the daemon's one-shot call, printed as the CLI in its own process prints it. */
function printProgress(method: string, params: unknown): void {
  const line = method === '$/progress' ? progressLine((params as { value?: unknown } | undefined)?.value) : undefined;
  if (line) process.stderr.write(line);
}

/**
 * The connection closed before the daemon answered a one-shot call: DAEMON_FAILED with what the
 * apply journals of that daemon say was written (exit 1). Falling back to the full CLI here ran the
 * operation a second time, in this process, on whatever the first run had left.
 */
function daemonDiedMidCall(socket: net.Socket, daemonPid: number | undefined): true {
  socket.destroy();
  const journals = daemonPid !== undefined ? journalSummaries(defaultCacheDir(), { pid: daemonPid }) : [];
  const details = { reason: 'connection', ...(daemonPid !== undefined ? { daemon_pid: daemonPid } : {}), journals };
  process.stderr.write(
    `DAEMON_FAILED: the lspgate daemon closed the connection before answering; the call was not run again. ${describeJournals(journals)}\n${JSON.stringify(details, null, 2)}\n`,
    () => process.exit(1),
  );
  return true;
}

function pidOf(reply: JsonRpcReply): number | undefined {
  const pid = (reply.result as { pid?: unknown } | undefined)?.pid;
  return typeof pid === 'number' ? pid : undefined;
}

function refuse(socket: net.Socket): false {
  socket.destroy();
  return false;
}

/**
 * stdin → socket, socket → stdout for a thin sidecar. stdin's end half-closes the socket; the
 * daemon closing it ends this process: as the sidecar would after the client's `exit` (0 after
 * `shutdown`, else 1) or stdin EOF (0); after framing the client broke, the daemon's parse error
 * says why on stderr (exit 1), as the in-process sidecar logs it; else the daemon is gone: stderr
 * says so, exit status 1. The daemon's end of the stream ends the relay even while client bytes it
 * no longer reads are still queued (20 MB of header junk kept the process open).
 */
function pipeSidecar(socket: net.Socket, already: Buffer): void {
  const watch = new SidecarWatch();
  if (already.length) {
    watch.answer(already);
    process.stdout.write(already);
  }
  let inputEnded = false;
  process.stdin.on('end', () => {
    inputEnded = true;
  });
  process.stdin.on('data', (chunk: Buffer) => watch.feed(chunk));
  process.stdin.pipe(socket);
  socket.on('data', (chunk: Buffer) => watch.answer(chunk));
  socket.pipe(process.stdout, { end: false });
  socket.resume();
  socket.on('error', () => undefined);
  socket.on('end', () => {
    process.stdin.unpipe(socket);
    process.stdin.pause();
    socket.destroy();
  });
  socket.on('close', () => {
    const normal = watch.exitCode !== undefined || inputEnded;
    if (watch.framingError !== undefined) process.stderr.write(`lspgate: closing: the client broke the message framing (${watch.framingError})\n`);
    else if (!normal) process.stderr.write('lspgate: the lspgate daemon closed the connection; exiting\n');
    const code = watch.framingError !== undefined ? 1 : (watch.exitCode ?? (normal ? 0 : 1));
    process.stdout.write('', () => process.exit(code));
  });
}
