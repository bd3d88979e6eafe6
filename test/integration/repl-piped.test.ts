/**
 * The REPL as a spawned process with piped stdin (no TTY): dot-commands generated from the
 * operation table, `--field value` coercion, `.json`, `.help`, JavaScript with `run` in scope,
 * and — against the real typescript-language-server — `.raw`, `.trace` and `.servers`; every
 * output in input order, then exit at EOF with the server stopped.
 */
import { describe, expect, it } from 'vitest';

import { assertBuilt, isAlive, removeDir, spawnNode, tempDir, TEST_FRONTEND, TS_APP, waitGone } from '../helpers/spawn.js';

/** Bound for tests that start a real language server (the CI machine is shared). */
const SERVER_TEST_TIMEOUT_MS = 150_000;

async function runRepl(lines: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const cacheDir = tempDir();
  try {
    const p = spawnNode(TEST_FRONTEND, ['repl', '--root', TS_APP], { cacheDir });
    p.child.stdin!.end(lines.join('\n') + '\n');
    const { code } = await p.exited;
    return { code, out: p.stdout(), err: p.stderr() };
  } finally {
    removeDir(cacheDir);
  }
}

/** Asserts that the fragments occur in `text` in this order. */
function expectInOrder(text: string, fragments: string[]): void {
  let at = 0;
  for (const f of fragments) {
    const i = text.indexOf(f, at);
    expect(i, `"${f}" after offset ${at} in:\n${text}`).toBeGreaterThanOrEqual(0);
    at = i + f.length;
  }
}

describe('lspgate repl with piped stdin', () => {
  it('runs dot-commands and JavaScript in order and exits 0 at EOF', async () => {
    assertBuilt();
    const { code, out } = await runRepl([
      '.echo hello --times 2',
      '.help',
      '.help echo',
      '.echo',
      '.json on',
      '.echo "two words" --tags a --tags b --loud',
      '.json off',
      '.fail --code AMBIGUOUS_SYMBOL',
      '.echo x --times nope',
      '.nope',
      // a command's name without its dot fails as JavaScript, and says which command was meant
      'echo hi there',
      'echo',
      '1 + 1',
      'await run("echo", { text: "from js" }).then((r) => r.text)',
    ]);
    expect(code).toBe(0);
    expectInOrder(out, [
      'echo: hello hello',
      // .help: generated commands and the built-ins
      '.echo',
      '.servers',
      '.trace',
      '.raw',
      // .help echo: the fields from the schema
      '--times <integer>',
      'INVALID_INPUT: invalid input for echo',
      'json on',
      '"text": "TWO WORDS"',
      '"tags": [',
      '"a"',
      '"b"',
      'json off',
      'AMBIGUOUS_SYMBOL: failing on purpose',
      'src/a.ts::A#class',
      'INVALID_INPUT: --times expects an integer',
      'unknown command .nope',
      "SyntaxError: Unexpected identifier 'hi'; did you mean .echo hi there? (commands start with a dot; other input is JavaScript)",
      'ReferenceError: echo is not defined; did you mean .echo? (commands start with a dot; other input is JavaScript)',
      '2',
      "'from js'",
    ]);
  });

  it(
    'traces raw LSP traffic, lists the running server, and stops it at EOF',
    async () => {
      assertBuilt();
      const { code, out } = await runRepl([
        '.trace on',
        '.raw typescript-language-server textDocument/documentSymbol {"textDocument":{"uri":"src/util/strings.ts"}}',
        '.trace off',
        '.servers',
        '.raw no-such-server initialize {}',
      ]);
      expect(code).toBe(0);
      expectInOrder(out, [
        'trace on',
        // the server starts while tracing: its session is traced from its first message
        '[trace typescript-language-server] → request initialize',
        '[trace typescript-language-server] → request textDocument/documentSymbol',
        '[trace typescript-language-server] ← response textDocument/documentSymbol',
        '"name": "formatName"',
        'trace off',
        'sessions:',
        'typescript-language-server @ ',
        'INVALID_INPUT: no configured server no-such-server',
      ]);
      const pid = Number(/typescript-language-server @ \S+: \w+ pid (\d+)/.exec(out)?.[1]);
      expect(pid).toBeGreaterThan(0);
      // The REPL exited only after gateway.close(): its server is gone (or going) without a signal from us.
      expect(await waitGone([pid], 10_000)).toEqual([]);
      expect(isAlive(pid)).toBe(false);
    },
    SERVER_TEST_TIMEOUT_MS,
  );
});
