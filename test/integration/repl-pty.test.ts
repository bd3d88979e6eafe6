/**
 * The REPL at a terminal, driven as a person would (a pseudo-terminal: keys in, screen out):
 * a typo prints one line (`ReferenceError: foo is not defined`, no stack) and every command still
 * runs after it — node:repl reports a throwing line through its domain, not the callback the
 * REPL's queue waited for, and the REPL used to hang there; Tab completes a command; Ctrl-C
 * cancels the call that runs (an operation, or `run()` in an awaited line, or a synchronous loop,
 * or an awaited promise of the user's own) and the REPL goes on; `.exit` ends it with status 0; a cache directory that does not exist yet
 * gets the history file without "Could not open history file". Then the real `lspgate repl`
 * attached to a daemon: Ctrl-C cancels a call the daemon's server is slow to answer.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { daemonStatus, type DaemonWorld, daemonWorld } from '../helpers/daemon.js';
import { endWorld } from '../helpers/daemon-procs.js';
import { type PtyProgram, runInPty } from '../helpers/pty.js';
import { assertBuilt, CLI, removeDir, tempDir, TEST_FRONTEND, TS_APP } from '../helpers/spawn.js';

const TEST_TIMEOUT_MS = 240_000;

/** Types a line and waits until the REPL has taken it (readline echoes the Enter as a new line before it handles the line). */
async function typeLine(p: PtyProgram, line: string): Promise<number> {
  const at = p.screen().length;
  p.keys(`${line}\r`);
  await p.waitFor(`${line}\n`, `the line ${line}`, at);
  return at;
}

/** Types a line and waits for `answer` after it; returns what the screen got meanwhile. */
async function ask(p: PtyProgram, line: string, answer: string): Promise<string> {
  const at = await typeLine(p, line);
  await p.waitFor(answer, answer, at);
  return p.screen().slice(at);
}

describe('lspgate repl in a terminal', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it(
    'answers a typo in one line and goes on, completes with Tab, cancels with Ctrl-C, exits with .exit',
    async () => {
      assertBuilt();
      const base = tempDir('lspgate-repl-pty-');
      dirs.push(base);
      // not made yet: the REPL's history goes in it
      const cacheDir = path.join(base, 'cache', 'fresh');
      const p = runInPty(process.execPath, [TEST_FRONTEND, 'repl', '--root', TS_APP], { env: { LSPGATE_CACHE_DIR: cacheDir } });
      try {
        await p.waitFor('lspgate> ', 'the first prompt');

        const typo = await ask(p, 'foo', 'lspgate> ');
        expect(typo).toContain('ReferenceError: foo is not defined\n');
        expect(typo).not.toMatch(/^\s+at /m);
        expect(typo).not.toContain('Uncaught');
        expect(await ask(p, '.echo after-the-typo', 'lspgate> ')).toContain('echo: after-the-typo');
        expect(await ask(p, '1 + 1', 'lspgate> ')).toContain('2\n');
        const rejected = await ask(p, 'await Promise.reject(new TypeError("nope"))', 'lspgate> ');
        expect(rejected).toContain('TypeError: nope\n');
        expect(rejected).not.toMatch(/^\s+at /m);
        expect(await ask(p, 'await run("fail", {})', 'lspgate> ')).toContain('SYMBOL_NOT_FOUND: failing on purpose');

        // Tab: `.ec` becomes `.echo`
        let at = p.screen().length;
        p.keys('.ec\t');
        await p.waitFor('.echo', 'the completed command', at);
        p.keys(' tabbed\r');
        await p.waitFor('echo: tabbed', 'the completed command to run', at);

        // Ctrl-C during a long call: an operation, then run() in an awaited line, then a synchronous loop
        for (const line of ['.wait', 'await run("wait", {})']) {
          at = await typeLine(p, line);
          p.keys('\x03');
          await p.waitFor('CANCELLED: ', `${line} to be cancelled`, at);
          expect(await ask(p, '.echo still-here', 'echo: still-here')).not.toContain('press Ctrl+C again');
        }
        at = await typeLine(p, 'while (true) {}');
        p.keys('\x03');
        await p.waitFor('Script execution was interrupted', 'the loop to be interrupted', at);
        expect(await ask(p, '.echo and-here', 'echo: and-here')).toBeTruthy();
        // an awaited promise that no call of lspgate's holds: one Ctrl-C ends the wait (it took two)
        at = await typeLine(p, 'await new Promise(() => {})');
        p.keys('\x03');
        await p.waitFor('Script execution was interrupted', 'the await to be interrupted', at);
        expect(await ask(p, '.echo there-too', 'echo: there-too')).toBeTruthy();

        await typeLine(p, '.exit');
        expect(await p.exited).toBe(0);
        expect(p.screen()).not.toContain('Could not open history file');
        expect(existsSync(path.join(cacheDir, 'repl_history'))).toBe(true);
      } finally {
        p.kill();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe('lspgate repl in a terminal, attached to the daemon', () => {
  let w: DaemonWorld | undefined;
  afterAll(async () => {
    if (w) await endWorld(w);
  });

  it(
    'Ctrl-C cancels a call the server is slow to answer; the REPL goes on and .exit leaves the daemon running',
    async () => {
      assertBuilt();
      // definitions take ten minutes: only Ctrl-C ends the call
      w = daemonWorld(['--slow-on=textDocument/definition', '--slow-ms=600000']);
      const p = runInPty(process.execPath, [CLI, 'repl', '--root', w.ws, '--daemon', 'require'], { env: { ...w.env, LSPGATE_CACHE_DIR: w.cacheDir } });
      try {
        // the REPL starts the daemon first: on a loaded machine that alone took most of a minute
        await p.waitFor('lspgate> ', 'the first prompt', 0, 150_000);
        expect(await ask(p, 'foo', 'lspgate> ')).toContain('ReferenceError: foo is not defined\n');
        const at = await typeLine(p, '.def FaultSymbol');
        p.keys('\x03');
        await p.waitFor('CANCELLED', 'the call to be cancelled', at);
        expect(await ask(p, '.echo', 'lspgate> ')).toContain('unknown command .echo');
        await typeLine(p, '.exit');
        expect(await p.exited).toBe(0);
        expect((await daemonStatus(w))?.pid).toBeGreaterThan(0);
      } finally {
        p.kill();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
