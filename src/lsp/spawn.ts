/**
 * Starts one server process: execa from an argument array (never a shell), detached so it leads
 * its own process group, under the reaper watchdog (reaper.ts). Kills the whole tree.
 */
import { execa, type ResultPromise } from 'execa';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../util/logger.js';
import type { ResolvedCommand } from '../config/load.js';
import { parseReaperExit, parseReaperPid, wrapWithReaper } from './reaper.js';
import { StderrRing } from './stderr-ring.js';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface ServerProcess {
  /** pid of the process-group leader (the reaper, or the server itself without it). */
  readonly pid: number;
  /** pid of the server itself (under the reaper: from its spawn report; undefined until then). */
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
  /** Run under the parent-watching reaper (default true). */
  reaper?: boolean;
}

/** The process's end: under the reaper, with the server's own exit code from the reaper's report. */
function exitOf(child: ResultPromise, ring: StderrRing, log: SpawnOptions['logger'], state: { done: boolean }): Promise<ExitInfo> {
  return new Promise<ExitInfo>((resolve) => {
    child.on('exit', (code, signal) => {
      state.done = true;
      // Under the reaper the real exit code of the server is in the reaper's report, which may
      // still be in flight on stderr when 'exit' fires ('close' could wait forever on a
      // grandchild holding the pipe): wait briefly for the end of stderr.
      const finish = () => resolve(parseReaperExit(ring.tail(5)) ?? { code, signal });
      if (child.stderr!.readableEnded) return finish();
      const t = setTimeout(finish, 150);
      child.stderr!.once('end', () => {
        clearTimeout(t);
        finish();
      });
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

export function spawnServer(cmd: ResolvedCommand, opts: SpawnOptions): ServerProcess {
  const argv = opts.reaper === false ? { file: cmd.file, args: cmd.args } : wrapWithReaper(cmd.file, cmd.args);
  const child: ResultPromise = execa(argv.file, argv.args, {
    cwd: opts.cwd,
    env: { ...process.env, ...cmd.env },
    extendEnv: false,
    detached: true,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cleanup: false,
    forceKillAfterDelay: false,
    encoding: 'buffer',
  });
  const pid = child.pid;
  const ring = new StderrRing();
  const log = opts.logger;
  let serverPid = opts.reaper === false ? pid : undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of ring.push(chunk.toString('utf8'))) {
      serverPid ??= parseReaperPid(line);
      log.debug(`stderr: ${line}`);
    }
  });
  // EPIPE after the server died must not become an uncaught exception.
  child.stdin!.on('error', (e) => log.debug(`stdin error: ${(e as Error).message}`));
  child.stdout!.on('error', (e) => log.debug(`stdout error: ${(e as Error).message}`));
  const state = { done: false };
  const exited = exitOf(child, ring, log, state);
  // execa's own promise settles with the result; it is not used (reject: false), only kept quiet.
  void child.then(
    () => undefined,
    () => undefined,
  );
  const killTree = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone
    }
  };
  if (pid === undefined) {
    return { pid: -1, serverPid: () => undefined, stdin: child.stdin!, stdout: child.stdout!, stderr: ring, exited, hasExited: () => true, killTree };
  }
  return { pid, serverPid: () => serverPid, stdin: child.stdin!, stdout: child.stdout!, stderr: ring, exited, hasExited: () => state.done, killTree };
}
