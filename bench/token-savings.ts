/**
 * Token savings on a fixture (docs/performance.md table, like seed 001's): the bytes an agent would read
 * without lspgate versus the bytes of lspgate's answer, for four everyday tasks. Tokens ≈ bytes/4.
 * Default: a generated 200-file TypeScript repository (bench/gen-repo.ts, seed 1); `--root DIR`
 * measures any folder instead. Answers are measured as compact JSON (what the runner counts).
 *   node dist/bench/token-savings.js [--files 200 | --root fixtures/ts-app]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { isTestPath } from '../src/adapters/test-files.js';
import type { CatalogSymbol } from '../src/core/catalog.js';
import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';
import { outlineRatios } from './outline-ratio.js';
import { toolsListSizes, toolsListTable } from './tools-list.js';

const args = process.argv.slice(2);
const argOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const genDir = argOf('--root') ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-gen-'));
const root = fs.realpathSync(argOf('--root') ?? generateRepo({ files: Number(argOf('--files') ?? 200), seed: 1, out: path.join(genDir!, 'repo') }).root);

const tokens = (bytes: number) => Math.ceil(bytes / 4);
const sizeOf = (rel: string) => fs.statSync(path.join(root, rel)).size;

async function main(): Promise<void> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-bench-'));
  const gateway = await Gateway.create({ root, cacheDir });
  try {
    const ws = await gateway.openWorkspace(root);
    const cat = ws.catalog;
    await cat.build();
    const files = [...cat.files().keys()];
    const allBytes = files.reduce((n, f) => n + sizeOf(f), 0);
    const answer = async (op: string, input: Record<string, unknown>) => Buffer.byteLength(JSON.stringify((await gateway.run(op, input)).result));
    const symbols = await cat.all();
    const fn = pick(symbols, ['function', 'method']);
    const moduleFile = [...cat.files()].sort(([, a], [, b]) => b.symbols.length - a.symbols.length)[0]![0];
    const hasOutline = gateway.operations().some((o) => o.name === 'get_file_outline');
    const rows: [string, number, number][] = [
      [`Explore repo structure (${files.length} files)`, allBytes, await answer('get_repo_outline', {})],
      [`Find a function (\`${fn.name}\`)`, allBytes, await answer('search_symbols', { query: fn.name, max_results: 5 })],
      [`Read one function body (\`${fn.qualified_name}\`)`, sizeOf(fn.file), await answer('get_symbol', { symbol_id: fn.symbol_id })],
    ];
    // Seed 001's "understand a module API" is a module of several files: the directory with the
    // most files, answered by list_package_exports; one file's outline is shown as well.
    const byDir = new Map<string, string[]>();
    for (const f of files) byDir.set(path.posix.dirname(f), [...(byDir.get(path.posix.dirname(f)) ?? []), f]);
    const [moduleDir, dirFiles] = [...byDir].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]!;
    rows.push([
      `Understand a module API (\`${moduleDir}/\`, ${dirFiles.length} files, list_package_exports)`,
      dirFiles.reduce((n, f) => n + sizeOf(f), 0),
      await answer('list_package_exports', { package: moduleDir }),
    ]);
    if (hasOutline)
      rows.push([`Outline one file (\`${moduleFile}\`, get_file_outline)`, sizeOf(moduleFile), await answer('get_file_outline', { file: moduleFile })]);
    rows.push(
      await contextRow(
        gateway,
        pick(
          symbols.filter((x) => !isTestPath(x.file, x.language)),
          ['function', 'method'],
        ),
      ),
    );
    process.stdout.write(
      `Token savings on ${genDir ? `a generated ${files.length}-file TypeScript repo` : root} (tokens ≈ bytes/4, compact JSON answers incl. _meta)\n\n`,
    );
    process.stdout.write('| Scenario | Raw files | lspgate answer | Savings |\n|---|---:|---:|---:|\n');
    for (const [name, raw, ans] of rows) {
      const saved = raw > 0 ? (1 - ans / raw) * 100 : 0;
      process.stdout.write(`| ${name} | ~${tokens(raw).toLocaleString('en')} tokens | ~${tokens(ans).toLocaleString('en')} tokens | ${saved.toFixed(1)}% |\n`);
    }
    if (hasOutline)
      process.stdout.write(`\nget_file_outline answer ÷ file, by file size (median of each bucket):\n\n${await outlineRatios(gateway, root, files)}`);
    process.stdout.write(`\ntools/list per MCP tool profile (\`lspgate mcp --tools …\`):\n\n${toolsListTable(await toolsListSizes(gateway))}`);
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (genDir) fs.rmSync(genDir, { recursive: true, force: true });
  }
}

/**
 * get_context (default budget) against reading every workspace file it draws from: the symbol's
 * own file and those of its callers, callees, signature types, tests and references.
 */
async function contextRow(gateway: Gateway, fn: CatalogSymbol): Promise<[string, number, number]> {
  const r = (await gateway.run('get_context', { symbol_id: fn.symbol_id, output_format: 'json' })).result as Record<string, unknown>;
  const files = new Set<string>([fn.file]);
  for (const part of ['callers', 'callees', 'types', 'tests', 'references'])
    for (const x of (r[part] as { file: string }[] | undefined) ?? []) files.add(x.file);
  const raw = [...files].filter((f) => !path.isAbsolute(f)).reduce((n, f) => n + sizeOf(f), 0);
  return [
    `Work on one function (\`${fn.qualified_name}\`, get_context: source, callers, callees, types, tests; ${files.size} files)`,
    raw,
    Buffer.byteLength(JSON.stringify(r)),
  ];
}

/** The function with the longest body: the case where reading the whole file hurts least. */
function pick(symbols: CatalogSymbol[], kinds: string[]): CatalogSymbol {
  const fns = symbols.filter((s) => kinds.includes(s.kind)).sort((a, b) => b.byte_length - a.byte_length || a.symbol_id.localeCompare(b.symbol_id));
  if (!fns[0]) throw new Error('no function in the fixture');
  return fns[0];
}

await main();
