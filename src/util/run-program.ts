/**
 * A short-lived program (git) run from an argument array, no shell: its exit code and output,
 * never a throw for a failure (node:child_process, not a process library: loading one cost the
 * daemon ~6 MB and a hundred modules for a handful of git calls). stdin is closed, output is
 * bounded (`maxBuffer`: past it the program is killed), and `timeout` or `signal` end it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ProgramResult {
  /** The exit code; undefined when it did not start or was killed. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it failed, in a few words (did not start, killed, output over the bound, exit code). */
  shortMessage: string;
}

export interface ProgramOptions {
  cwd?: string | undefined;
  env?: Record<string, string>;
  /** `env` is the whole environment, not additions to this process's (git drops variables that point it elsewhere). */
  replaceEnv?: boolean;
  timeout?: number;
  maxBuffer?: number;
  signal?: AbortSignal | undefined;
  /**
   * For a program started under the watchdog (src/lsp/reaper.ts): its own process group, a pipe as
   * fd 3 held open while it runs, and the whole group killed once it exits (what it left behind).
   */
  watched?: boolean;
}

function watchGroup(child: ChildProcess): void {
  (child.stdio[3] as Readable | null)?.on('error', () => undefined).resume();
  child.once('exit', () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  });
}

export function runProgram(file: string, args: string[], opts: ProgramOptions = {}): Promise<ProgramResult> {
  return new Promise((resolve) => {
    const max = opts.maxBuffer ?? 16 * 1024 * 1024;
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env ? (opts.replaceEnv ? opts.env : { ...process.env, ...opts.env }) : process.env,
      stdio: opts.watched ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      detached: opts.watched === true,
      signal: opts.signal,
    });
    if (opts.watched) watchGroup(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let why = '';
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        why ||= `output over ${max} bytes`;
        child.kill('SIGKILL');
      } else into.push(chunk);
    };
    child.stdout!.on('data', take(out));
    child.stderr!.on('data', take(err));
    let timedOut = false;
    const timer = opts.timeout
      ? setTimeout(() => ((timedOut = true), (why ||= `timed out after ${opts.timeout} ms`), child.kill('SIGTERM')), opts.timeout)
      : undefined;
    let failed = false;
    child.on('error', (e) => {
      failed = true;
      why ||= e.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // a program that did not start closes with a negative errno as its "code"
      const exitCode = failed || code === null ? undefined : code;
      if (!why && signal) why = `killed by ${signal}`;
      if (!why && exitCode !== 0) why = `${file} exited with code ${exitCode}`;
      resolve({ exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut, shortMessage: why });
    });
  });
}
