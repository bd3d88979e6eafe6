/**
 * Reaching the daemon's socket, and starting the daemon detached when nobody listens there (node
 * builtins only, see paths.ts).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

import { NODE_FLAGS, withOwnTunables } from './node-memory.js';
import { type DaemonPaths, LinkError } from './paths.js';

/** A connected socket, or undefined when no daemon listens there. */
export function connect(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    if (!existsSync(socketPath)) return resolve(undefined);
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', () => resolve(undefined));
  });
}

/** The CLI script this module was built with (dist/src/cli/main.js). */
function cliScript(): string {
  return fileURLToPath(new URL('../cli/main.js', import.meta.url));
}

/**
 * A launcher that starts the daemon and exits at once, so the daemon is nobody's child (it is
 * re-parented to init or the session's subreaper): a client that started it can end, be killed
 * or be waited for without the daemon and its servers counting as that client's processes.
 * Node cannot fork without exec, hence a second tiny Node process (no shell: an argument array).
 */
const LAUNCHER = `const { spawn } = require('node:child_process');
const [file, ...args] = process.argv.slice(1);
spawn(file, args, { detached: true, stdio: 'inherit' }).unref();`;

/** Starts `lspgate daemon` detached (own session, no terminal, no parent), its stderr to the log beside the socket. */
export function startDaemon(paths: DaemonPaths): void {
  const log = openSync(paths.log, 'a', 0o600);
  try {
    // the daemon runs with the bin's flags and malloc tunables (the launcher too: it only spawns)
    const launcher = spawn(process.execPath, ['-e', LAUNCHER, process.execPath, ...NODE_FLAGS, cliScript(), 'daemon'], {
      detached: true,
      stdio: ['ignore', 'ignore', log],
      env: withOwnTunables(process.env),
    });
    launcher.unref();
  } finally {
    closeSync(log);
  }
}

let startFailure: LinkError | undefined;

/**
 * The daemon this process started that did not come up in time (the thin client's try): the full
 * CLI, loaded next in the same process, reports it instead of starting and waiting a second time.
 */
export function previousStartFailure(): LinkError | undefined {
  return startFailure;
}

export async function waitForDaemon(paths: DaemonPaths, limitMs: number): Promise<net.Socket> {
  const until = Date.now() + limitMs;
  for (;;) {
    const s = await connect(paths.socket);
    if (s) return s;
    if (Date.now() > until) {
      throw (startFailure = new LinkError('DAEMON_FAILED', `the lspgate daemon did not start within ${limitMs} ms; its log: ${paths.log}`, {
        reason: 'start_timeout',
        log_tail: tail(paths.log),
      }));
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function waitUntilGone(socketPath: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (existsSync(socketPath) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
