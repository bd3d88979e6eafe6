/**
 * Starts one server process from an argument array (never a shell that parses it: the watchdog's
 * shell only passes it on), detached so it leads its own process group, under the watchdog
 * (reaper.ts). Kills the whole tree: when asked, and when the server exits (its left-over children
 * and the watchdog with them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

import type { ResolvedCommand } from '../config/load.js';
import type { Logger } from '../util/logger.js';
import { wrapWithReaper } from './reaper.js';
import { StderrRing } from './stderr-ring.js';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface ServerProcess {
  /** pid of the server, which leads its process group. */
  readonly pid: number;
  /** pid of the server itself (the same: the watchdog's shell becomes the server). */
  serverPid(): number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: StderrRing;
  /** Resolves when the process exits (never rejects). */
  readonly exited: Promise<ExitInfo>;
  readonly hasExited: () => boolean;
  /** SIGKILL to the whole process group (idempotent, never throws). */
  killTree(signal?: NodeJS.Signals): void;
}

export interface SpawnOptions {
  cwd: string;
  logger: Logger;
  /** Run under the parent-watching watchdog (default true). */
  reaper?: boolean;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

function exitOf(child: ChildProcess, log: Logger, state: { done: boolean }): Promise<ExitInfo> {
  return new Promise<ExitInfo>((resolve) => {
    child.on('exit', (code, signal) => {
      state.done = true;
      // what the server left behind (a tsserver child, the watchdog) goes with it
      killGroup(child.pid, 'SIGKILL');
      resolve({ code, signal });
    });
    child.on('error', (e) => {
      log.debug(`process error: ${e.message}`);
      if (child.pid === undefined) {
        state.done = true;
        resolve({ code: null, signal: null });
      }
    });
  });
}

/** lspgate's end of the watchdog's pipe: open for the process's life, never keeping lspgate alive. */
function holdLifeline(child: ChildProcess): void {
  const lifeline = child.stdio[3] as Socket | null | undefined;
  if (!lifeline) return;
  lifeline.on('error', () => undefined);
  // read, so that its end (the group gone) is seen and the handle closes
  lifeline.resume();
  lifeline.unref();
}

export function spawnServer(cmd: ResolvedCommand, opts: SpawnOptions): ServerProcess {
  const watched = opts.reaper !== false;
  const argv = watched ? wrapWithReaper(cmd.file, cmd.args) : { file: cmd.file, args: cmd.args };
  const child = spawn(argv.file, argv.args, {
    cwd: opts.cwd,
    env: { ...process.env, ...cmd.env },
    detached: true,
    stdio: watched ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
  });
  if (watched) holdLifeline(child);
  const pid = child.pid;
  const ring = new StderrRing();
  const log = opts.logger;
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of ring.push(chunk.toString('utf8'))) log.debug(`stderr: ${line}`);
  });
  // EPIPE after the server died must not become an uncaught exception.
  child.stdin!.on('error', (e) => log.debug(`stdin error: ${e.message}`));
  child.stdout!.on('error', (e) => log.debug(`stdout error: ${e.message}`));
  const state = { done: false };
  const exited = exitOf(child, log, state);
  const killTree = (signal: NodeJS.Signals = 'SIGKILL') => killGroup(pid, signal);
  if (pid === undefined) {
    return { pid: -1, serverPid: () => undefined, stdin: child.stdin!, stdout: child.stdout!, stderr: ring, exited, hasExited: () => true, killTree };
  }
  return { pid, serverPid: () => pid, stdin: child.stdin!, stdout: child.stdout!, stderr: ring, exited, hasExited: () => state.done, killTree };
}
