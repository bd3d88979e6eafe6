/**
 * The calls README.md shows are run, and what they print is what README shows. Each example is a
 * `<!-- example: ARGS -->` marker followed by a ````console block whose first line is `$ lspgate ARGS`
 * and whose other lines are the output; this test runs `lspgate ARGS --daemon off` from the checkout on
 * the bundled fixtures with a fresh cache and compares. `LSPGATE_WRITE_EXAMPLES=1` rewrites the blocks
 * with what the commands print instead (then read the diff before committing it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import { assertBuilt, removeDir, REPO, runCli, tempDir } from '../helpers/spawn.js';

const README = path.join(REPO, 'README.md');
const EXAMPLE = /<!-- example: (.+?) -->\n````console\n\$ lspgate (.+?)\n([\s\S]*?)\n````\n/g;

interface Example {
  args: string;
  shown: string;
  /** Where the output sits in README.md, for rewriting. */
  start: number;
  end: number;
}

function examples(text: string): Example[] {
  return [...text.matchAll(EXAMPLE)].map((m) => {
    if (m[1] !== m[2]) throw new Error(`README example marker and command differ: ${m[1]} / ${m[2]}`);
    // the output starts on the line after the `$ lspgate …` line
    const start = m.index + m[0].indexOf('\n', m[0].indexOf('\n$ lspgate ') + 1) + 1;
    return { args: m[1]!, shown: m[3]!, start, end: start + m[3]!.length };
  });
}

/** Split as a shell would for these examples: words separated by spaces, or one word in single quotes. */
const words = (args: string) => [...args.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
const needsGo = (args: string) => args.includes('fixtures/go-');

const text = readFileSync(README, 'utf8');
const found = examples(text);
const printed = new Map<string, string>();
const cacheDirs: string[] = [];

afterAll(() => {
  for (const dir of cacheDirs) removeDir(dir);
  if (process.env.LSPGATE_WRITE_EXAMPLES !== '1' || printed.size === 0) return;
  let out = text;
  for (const ex of [...found].reverse()) if (printed.has(ex.args)) out = out.slice(0, ex.start) + printed.get(ex.args)! + out.slice(ex.end);
  writeFileSync(README, out);
});

describe('README examples', () => {
  it('has the five calls', () => {
    expect(found.length).toBeGreaterThanOrEqual(5);
  });

  it.each(found.map((ex) => [ex.args, ex] as const))('lspgate %s prints what README shows', async (args, ex) => {
    if (needsGo(args) && !goAvailable) return; // GO TESTS SKIPPED is printed by helpers/go.ts
    assertBuilt();
    const cacheDir = tempDir('lspgate-readme-');
    cacheDirs.push(cacheDir);
    const r = await runCli([...words(args), '--daemon', 'off'], { cacheDir });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.replace(/\n+$/, '');
    printed.set(args, out);
    if (process.env.LSPGATE_WRITE_EXAMPLES !== '1') expect(out).toBe(ex.shown);
  });
});
