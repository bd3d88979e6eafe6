/**
 * One changed file, on a catalog of tens of thousands of symbols: the syntax re-catalog of the file
 * (parse, declarations, ids, hashes: service/cataloging/syntax-entry.ts, in the process), the
 * search structure's update (SearchTexts.sync: that file's slots and grams), and, beside them, what
 * the update replaces — the whole structure rebuilt (SearchTexts.of, what every first search after
 * a change cost before). Each edit appends a function to a file picked at random, re-catalogs it,
 * and runs one query.
 *
 *   node dist/bench/incremental.js --root DIR [--edits 40] [--query parse]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { syntaxOf } from '../src/adapters/languages.js';
import { SearchTexts } from '../src/catalog/search-texts.js';
import { SymbolIndex } from '../src/catalog/symbol-index.js';
import { syntaxEntry } from '../src/service/cataloging/syntax-entry.js';
import { createRng } from './seeded-random.js';
import { percentile } from './stats.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (d.name === 'node_modules' || d.name.startsWith('.')) continue;
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (syntaxOf(p)?.profile.syntax.declarations) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

async function entryOf(root: string, abs: string, text?: string) {
  const bytes = text === undefined ? fs.readFileSync(abs) : Buffer.from(text);
  return syntaxEntry({ rel: path.relative(root, abs).split(path.sep).join('/'), abs, root, bytes, size: bytes.length, mtimeMs: Date.now() });
}

/** The table for one repository (markdown). */
export async function incremental(root: string, edits: number, query: string): Promise<string> {
  const index = new SymbolIndex();
  const files = sourceFiles(root);
  for (const abs of files) {
    const e = await entryOf(root, abs);
    if (e) index.setFile(path.relative(root, abs).split(path.sep).join('/'), e);
  }
  let texts = SearchTexts.of(index);
  const rng = createRng(5);
  const syntaxMs: number[] = [];
  const syncMs: number[] = [];
  const rebuildMs: number[] = [];
  const queryMs: number[] = [];
  for (let i = 0; i < edits; i++) {
    const abs = rng.pick(files);
    const text = `${fs.readFileSync(abs, 'utf8')}\nexport function benchEdit${i}(value: number): number {\n  return value + ${i};\n}\n`;
    let t = performance.now();
    const e = await entryOf(root, abs, text);
    syntaxMs.push(performance.now() - t);
    index.setFile(path.relative(root, abs).split(path.sep).join('/'), e!);
    t = performance.now();
    texts = texts.sync(index);
    syncMs.push(performance.now() - t);
    t = performance.now();
    texts.top(query, undefined, 20);
    queryMs.push(performance.now() - t);
    t = performance.now();
    SearchTexts.of(index);
    rebuildMs.push(performance.now() - t);
  }
  const row = (label: string, xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `| ${label} | ${percentile(sorted, 50).toFixed(2)} ms | ${percentile(sorted, 95).toFixed(2)} ms |`;
  };
  return [
    `${path.basename(root)}: ${files.length} files, ${index.symbolCount()} symbols, ${edits} edits, load ${os.loadavg()[0]!.toFixed(1)}`,
    '',
    '| one changed file | p50 | p95 |',
    '|---|---:|---:|',
    row('syntax re-catalog (parse, declarations, ids, hashes)', syntaxMs),
    row('search structure update (SearchTexts.sync)', syncMs),
    row(`then search_symbols ranking "${query}"`, queryMs),
    row('before: the whole structure rebuilt (SearchTexts.of)', rebuildMs),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const root = fs.realpathSync(arg('--root') ?? '.');
  process.stdout.write(await incremental(root, Number(arg('--edits') ?? 40), arg('--query') ?? 'parse'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`[incremental] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
