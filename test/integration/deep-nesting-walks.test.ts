/**
 * The declaration readers that walked a file's tree by recursion (TypeScript/JavaScript's navigation
 * tree, PHP's declarations and function locals) walk it in steps on the heap: files nested 20,000
 * levels deep — far past the depths at which those walks gave up (256 visits for TypeScript, 1,000
 * for PHP) and at which a recursive walk overflows the stack — are cataloged by a real syntax
 * worker, and their declarations before, inside and after the deep part are found.
 * - deep.ts: 20,000 nested `try … catch` blocks in a function, a declaration at the bottom;
 * - deep-assign.ts: an assignment chain 20,000 long (`x = x = … = 1`);
 * - deep-chain.ts: a declaration whose initializer is an assignment chain 100,000 long (its end is
 *   read down the last children) and a callback passed to a member chain 100,000 long (its name is
 *   read down the chain): both overflowed a worker's stack in the navigation tree's helpers;
 * - deep.php: 20,000 nested `if` blocks at the top level, a function declared at the bottom
 *   (PHP's declarations walk), and the same inside a function with a variable at the bottom (its
 *   locals walk);
 * - deep.py: an `if` whose condition is 100,000 `not`s of `TYPE_CHECKING` (pyright's static
 *   conditions, read operand by operand), a variable bound under it, and a tuple target nested 500
 *   deep (far fewer: a name's binding scope is looked up through its ancestors, each lookup from
 *   the root), then a function whose last statement is 100,000 `not`s (its end is read down the
 *   last children).
 * Before, each of these files was refused (LIMIT_EXCEEDED, "nests more than … levels", or a stack
 * overflow for deep-chain.ts and deep.py), so none of their declarations could be found. Nothing here is
 * timed: the parse deadline is set far above what these files take on any machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { assertBuilt } from '../helpers/spawn.js';

const LEVELS = 20_000;
/** Chains read by small recursive helpers: a worker's 4 MB stack held 20,000 of their calls, not 100,000. */
const CHAIN = 100_000;

/** `open` LEVELS times, then `middle`, then `close` LEVELS times, a level per line (deep by structure, not minified by shape). */
const nest = (open: string, middle: string, close: string): string => `${`${open}\n`.repeat(LEVELS)}${middle}\n${`${close}\n`.repeat(LEVELS)}`;

const FILES: Record<string, string> = {
  'deep.ts': `export function beforeDeepTs() {}\nexport function deepTs() {\n${nest('try { f(); } catch {', 'const insideDeepTs = 1;', '}')}}\nexport function afterDeepTs() {}\n`,
  'deep-assign.ts': `export function beforeAssign() {}\nexport function deepAssign() {\nlet x;\nx = ${nest('x =', '1', '')};\nconst insideAssign = 1;\n}\nexport function afterAssign() {}\n`,
  'deep-chain.ts': `export function beforeChain() {}\nexport const chained = ${'x =\n'.repeat(CHAIN)}1;\na${'\n.b'.repeat(CHAIN)}(() => {\nconst insideCallback = 1;\n});\nexport function afterChain() {}\n`,
  'deep.php': [
    '<?php',
    'function before_deep_php() {}',
    nest('if ($a) {', 'function inside_deep_php() {}', '}'),
    `function deep_locals($a) {\n${nest('if ($a) {', '$inside_local = 1;', '}')}}`,
    'function after_deep_php() {}',
    '',
  ].join('\n'),
  'deep.py': `def before_deep_py():\n    pass\n\nif ${'not \\\n'.repeat(CHAIN)}TYPE_CHECKING:\n    inside_deep_py = 1\n\n${'(\n'.repeat(500)}in_tuple_py${',)\n'.repeat(500)} = x\n\ndef chain_end_py():\n    last = ${'not \\\n'.repeat(CHAIN)}y\n\ndef after_deep_py():\n    pass\n`,
  'small.ts': 'export function ordinary() {}\n',
};

interface Hit {
  name: string;
  file: string;
  qualified_name?: string;
}

describe('deeply nested files are walked without recursion', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway;
  let indexed: { state: string; errors?: { file: string; code: string; message?: string }[] };

  beforeAll(async () => {
    assertBuilt(); // the syntax workers run the built modules
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-deepwalk-')));
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-deepwalk-cache-'));
    for (const [rel, text] of Object.entries(FILES)) fs.writeFileSync(path.join(root, rel), text);
    // a deadline no machine comes near: the files take seconds, not ten minutes
    gateway = await Gateway.create({ root, cacheDir, limits: { parseTimeoutMs: 600_000, maxFileBytes: 4_000_000 } });
    indexed = (await gateway.run('index_folder', { path: root, output_format: 'json' })).result as unknown as typeof indexed;
  }, 900_000);

  afterAll(async () => {
    await gateway?.close();
    for (const d of [root, cacheDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  const search = async (query: string): Promise<Hit[]> =>
    ((await gateway.run('search_symbols', { query, output_format: 'json' })).result as unknown as { results: Hit[] }).results;

  it('every file is cataloged: none refused as nested too deep', () => {
    expect(indexed.errors ?? []).toEqual([]);
    expect(indexed.state).toBe('ready');
  });

  it.each([
    ['beforeDeepTs', 'deep.ts'],
    ['insideDeepTs', 'deep.ts'],
    ['afterDeepTs', 'deep.ts'],
    ['beforeAssign', 'deep-assign.ts'],
    ['insideAssign', 'deep-assign.ts'],
    ['afterAssign', 'deep-assign.ts'],
    ['beforeChain', 'deep-chain.ts'],
    ['chained', 'deep-chain.ts'],
    ['insideCallback', 'deep-chain.ts'],
    ['afterChain', 'deep-chain.ts'],
    ['before_deep_php', 'deep.php'],
    ['inside_deep_php', 'deep.php'],
    ['$inside_local', 'deep.php'],
    ['after_deep_php', 'deep.php'],
    ['before_deep_py', 'deep.py'],
    ['inside_deep_py', 'deep.py'],
    ['in_tuple_py', 'deep.py'],
    ['chain_end_py', 'deep.py'],
    ['after_deep_py', 'deep.py'],
  ])(
    'search finds %s in %s',
    async (name, file) => {
      const hits = await search(name.replace(/^\$/, ''));
      expect(hits.filter((h) => h.name === name).map((h) => h.file)).toEqual([file]);
    },
    120_000,
  );

  // an outline leaves out a function's locals: those are found by search above
  it('the outline of each deep file lists its declarations around and inside the deep part, in order', async () => {
    const outline = async (file: string) => JSON.stringify((await gateway.run('get_file_outline', { file, detail: 'names', output_format: 'json' })).result);
    for (const [file, names] of [
      ['deep.ts', ['beforeDeepTs', 'deepTs', 'afterDeepTs']],
      ['deep-assign.ts', ['beforeAssign', 'deepAssign', 'afterAssign']],
      ['deep-chain.ts', ['beforeChain', 'chained', 'afterChain']],
      ['deep.php', ['before_deep_php', 'inside_deep_php', 'deep_locals', 'after_deep_php']],
    ] as const) {
      const text = await outline(file);
      const at = names.map((n) => text.indexOf(n));
      expect(
        at.every((i) => i >= 0),
        text.slice(0, 3000),
      ).toBe(true);
      expect(
        [...at].sort((a, b) => a - b),
        text.slice(0, 3000),
      ).toEqual(at);
    }
  }, 300_000);
});
