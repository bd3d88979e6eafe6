/**
 * Name resolution on real code: names of functions, classes and methods picked evenly from the
 * catalog of `--root`, each asked as `find_definition {symbol}` the way it was answered before the
 * resolution policy (`strict: true`: several declarations are always AMBIGUOUS_SYMBOL) and now.
 * Prints the share answered directly / ambiguous / not found, the share of names with exactly one
 * module-level source declaration answered with it, and writes every answer the policy picked
 * (with its alternatives) and the leaders of every remaining tie to `--out` for checking by hand.
 *   node dist/bench/resolution-share.js --root DIR [--names 150] [--out picks.json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { CatalogSymbol } from '../src/core/catalog.js';
import { LspgateError } from '../src/errors/errors.js';
import { Gateway } from '../src/gateway/gateway.js';
import { rankCandidates } from '../src/service/navigation/resolution-policy.js';

const args = process.argv.slice(2);
const argOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = fs.realpathSync(argOf('--root') ?? '.');
const wanted = Number(argOf('--names') ?? 150);
const KINDS = new Set(['class', 'interface', 'struct', 'trait', 'function', 'method']);

type Outcome = 'direct' | 'ambiguous' | 'other';

async function ask(gateway: Gateway, name: string, strict: boolean) {
  try {
    const r = (await gateway.run('find_definition', { symbol: name, strict, output_format: 'json' })).result as Record<string, unknown>;
    return { outcome: 'direct' as Outcome, result: r };
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'AMBIGUOUS_SYMBOL') return { outcome: 'ambiguous' as Outcome };
    return { outcome: 'other' as Outcome, code: e instanceof LspgateError ? e.code : String(e) };
  }
}

/** Every k-th distinct name, so the sample covers the catalog evenly. */
function pickNames(all: CatalogSymbol[]): string[] {
  const names = [...new Set(all.filter((s) => KINDS.has(s.kind) && /^[A-Za-z_$][\w$]*$/.test(s.name)).map((s) => s.name))].sort();
  const step = Math.max(1, names.length / wanted);
  const out: string[] = [];
  for (let i = 0; i < names.length && out.length < wanted; i += step) out.push(names[Math.floor(i)]!);
  return out;
}

async function main(): Promise<void> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-bench-'));
  const gateway = await Gateway.create({ root, cacheDir });
  try {
    const ws = await gateway.openWorkspace(root);
    await ws.catalog.build();
    const all = await ws.catalog.all();
    const names = pickNames(all);
    const count = { before: { direct: 0, ambiguous: 0, other: 0 }, after: { direct: 0, ambiguous: 0, other: 0 } };
    let oneTop = 0;
    let oneTopRight = 0;
    const picks: unknown[] = [];
    for (const name of names) {
      const before = await ask(gateway, name, true);
      const after = await ask(gateway, name, false);
      count.before[before.outcome]++;
      count.after[after.outcome]++;
      const ranked = rankCandidates(await ws.catalog.lookup(name), name, 'any', (id) => ws.catalog.cached(id));
      const top = ranked.filter((c) => c.scope === 'module' && c.role === 'source');
      const defs = (after.result?.definitions ?? []) as { file: string; line: number; kind: string }[];
      if (top.length === 1) {
        oneTop++;
        if (defs.some((d) => d.file === top[0]!.symbol.file && d.line === top[0]!.symbol.selection_line)) oneTopRight++;
      }
      if (after.outcome === 'ambiguous') {
        const leaders = ranked.filter((c) => c.key.join() === ranked[0]!.key.join());
        picks.push({ name, tie: leaders.map((c) => `${c.symbol.kind} ${c.scope} ${c.role} ${c.symbol.file}:${c.symbol.selection_line}`) });
      }
      if (before.outcome === 'ambiguous' && after.outcome === 'direct') {
        const meta = after.result!._meta as { alternatives?: unknown[] };
        picks.push({ name, answered: defs.map((d) => `${d.kind} ${d.file}:${d.line}`), alternatives: meta.alternatives });
      }
    }
    const pct = (n: number) => `${((100 * n) / names.length).toFixed(0)}%`;
    console.log(`${root}: ${all.length} symbols, ${names.length} names asked`);
    console.log('| | direct | AMBIGUOUS_SYMBOL | other |\n|---|---|---|---|');
    for (const k of ['before', 'after'] as const) console.log(`| ${k} | ${pct(count[k].direct)} | ${pct(count[k].ambiguous)} | ${pct(count[k].other)} |`);
    console.log(`names with exactly one module-level source declaration: ${oneTop}, answered with it: ${oneTopRight}`);
    const out = argOf('--out');
    if (out) fs.writeFileSync(out, JSON.stringify(picks, null, 1));
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

await main();
