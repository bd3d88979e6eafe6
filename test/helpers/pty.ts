/**
 * A program in a pseudo-terminal (test/helpers/pty-driver.py, Python's pty module), driven with
 * keys as a person would: `keys('.ec\t')`, Ctrl-C as '\x03', Enter as '\r'. What it drew is read
 * back without terminal escape sequences.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { childEnv, waitFor } from './spawn.js';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pty-driver.py');

export interface PtyProgram {
  /** Types these keys. */
  keys(text: string): void;
  /** Everything drawn so far, escape sequences and carriage returns removed. */
  screen(): string;
  /** Waits until the screen, after offset `from`, holds `text` (a hang guard of `limitMs`, default 60 s). */
  waitFor(text: string, what?: string, from?: number, limitMs?: number): Promise<void>;
  exited: Promise<number | null>;
  kill(): void;
}

/** CSI and OSC sequences, and the two-byte escapes readline uses. */
// eslint-disable-next-line no-control-regex -- escape sequences are control characters
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]/g;

export function plainScreen(raw: string): string {
  return raw.replace(ESCAPES, '').replace(/\r/g, '');
}

export function runInPty(command: string, args: string[], opts: { env?: Record<string, string>; cwd?: string; cols?: number; rows?: number } = {}): PtyProgram {
  const child = spawn('python3', [DRIVER, String(opts.cols ?? 160), String(opts.rows ?? 50), command, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: opts.cwd,
    env: childEnv({ TERM: 'xterm-256color', NO_COLOR: '1', ...opts.env }),
  });
  let raw = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (raw += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (raw += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const screen = () => plainScreen(raw);
  return {
    keys: (text) => child.stdin.write(text),
    screen,
    waitFor: (text, what, from = 0, limitMs = 60_000) =>
      waitFor(() => screen().indexOf(text, from) >= 0, what ?? JSON.stringify(text), limitMs).catch((e: Error) => {
        throw new Error(`${e.message}; the screen:\n${screen()}`);
      }),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}
