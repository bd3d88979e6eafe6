/**
 * Wide answers on a real package, warm: find_callers depth 2 and analyze_impact on a
 * widely called function, with search_code, get_context and a rename preview (an edit preview with
 * its referencing files) beside them, in one in-process gateway.
 *
 *   node dist/bench/wide-answers.js --root DIR --symbol NAME [--file REL --line N --column N] [--reps 3] [--json out.json] [--dump DIR]
 *
 * --file/--line/--column place the symbol when its name alone is ambiguous (analyze_impact takes the name,
 * or --element: a symbol_id).
 *
 * Each answer is timed with its caches invalidated first (as the warm column of `npm run bench`),
 * and the LSP requests it sent and the documents it opened are counted, with the documents left open
 * in the servers after it. The first round warms the server (project loaded, catalog built) and is
 * not reported. --check-prune asks analyze_impact once more with every last-level item asked
 * (new-files-only.ts off) and compares the two answers' effects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { liveResponseCaches } from '../src/cache/response-cache.js';
import { Gateway } from '../src/gateway/gateway.js';
import { Session } from '../src/lsp/session.js';
import { descriptorOperations } from '../src/operations/defs/descriptors.js';
import { navigationOperations } from '../src/operations/defs/navigation.js';
import { operations as registered } from '../src/operations/registry.js';
import type { Operation } from '../src/operations/types.js';
import { NewFilesOnly } from '../src/service/navigation/new-files-only.js';
import { createLogger } from '../src/util/logger.js';
import { summarize } from './stats.js';

const arg = (name: string, dflt?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};

const counts = { requests: 0, opened: 0 };
const openers = new Map<string, number>();
function countSessions(): void {
  const proto = Session.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const request = proto['request']!;
  proto['request'] = function (this: unknown, ...a: unknown[]) {
    counts.requests++;
    return request.apply(this, a);
  };
  const sync = proto['syncDocument']!;
  proto['syncDocument'] = function (this: Session, ...a: unknown[]) {
    if (!this.getDocument(a[0] as string)) {
      counts.opened++;
      // WIDE_STACKS=1: who opens (the frames above the session), to find what an answer opens
      if (process.env['WIDE_STACKS']) {
        const frames = (new Error().stack ?? '')
          .split('\n')
          .slice(2, 14)
          .map((l) =>
            l
              .trim()
              .replace(/^at /, '')
              .replace(/\(.*\/(src|bench)\//, '('),
          );
        openers.set(frames.join(' < '), (openers.get(frames.join(' < ')) ?? 0) + 1);
      }
    }
    return sync.apply(this, a);
  };
}

async function main(): Promise<void> {
  const log = (s: string) => process.stderr.write(`[wide-answers] ${s}\n`);
  const root = fs.realpathSync(arg('root') ?? '.');
  const symbol = arg('symbol');
  if (!symbol) throw new Error('--symbol NAME is required');
  const file = arg('file');
  const reps = Number(arg('reps', '3'));
  countSessions();
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-wide-'));
  const all = new Map<string, Operation>();
  for (const op of [...registered, ...navigationOperations, ...descriptorOperations]) if (!all.has(op.name)) all.set(op.name, op);
  const gateway = await Gateway.create({ root, cacheDir, logger: createLogger('wide', 'error'), operations: [...all.values()] });
  const line = arg('line');
  const target = file && line ? { file, line: Number(line), column: Number(arg('column', '1')) } : { symbol };
  const asks: [string, string, Record<string, unknown>][] = [
    ['find_callers depth 2', 'find_callers', { ...target, depth: 2 }],
    ['analyze_impact', 'analyze_impact', { element: arg('element', symbol) }],
    ['search_code', 'search_code', { query: `${symbol} parameters` }],
    ['get_context', 'get_context', target],
    // an edit preview with its referencing files: a rename, not applied
    ['rename preview', 'rename_symbol', { ...target, new_name: `${symbol.split('.').pop()}Renamed` }],
  ];
  const samples = new Map<string, number[]>();
  const rows: string[] = [];
  try {
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.build();
    for (let r = 0; r <= reps; r++) {
      for (const [label, op, input] of asks) {
        for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
        gateway.runner.clearOperationCache();
        counts.requests = 0;
        counts.opened = 0;
        const t = performance.now();
        let first = '';
        try {
          const res = await gateway.run(op, { ...input, output_format: 'markdown' });
          first = res.text.split('\n', 1)[0]!.slice(0, 160);
          // --dump DIR: each answer's text, to compare two builds' answers
          const dump = arg('dump');
          if (dump && r === 1) fs.writeFileSync(path.join(dump, `${op}.md`), res.text.replace(/\d+(\.\d+)? ?ms\b/g, 'N ms'));
        } catch (e) {
          first = `ERROR ${e instanceof Error ? e.message : String(e)}`.slice(0, 160);
        }
        const ms = performance.now() - t;
        for (const [k, n] of openers) log(`  opened ${n} × ${k}`);
        openers.clear();
        const open = gateway.context.broker
          .existing()
          .filter((s) => s.root === root)
          .reduce((n, s) => n + s.info().openDocuments, 0);
        log(`${r ? `rep ${r}` : 'warm-up'} ${label}: ${ms.toFixed(0)} ms, ${counts.requests} requests, ${counts.opened} opened, ${open} open after — ${first}`);
        if (!r) continue;
        (samples.get(label) ?? samples.set(label, []).get(label)!).push(ms);
        if (r === 1) rows.push(`| ${label} | REPLACE:${label} | ${counts.requests} | ${counts.opened} | ${first.replace(/\|/g, '\\|')} |`);
      }
    }
    if (process.argv.includes('--check-prune')) await checkPrune(gateway, { element: arg('element', symbol) }, log);
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const out = [
    `${path.basename(root)}, \`${symbol}\`, ${reps} reps, load average ${load}`,
    '',
    '| answer | p50 / p95 ms | LSP requests | files opened | first line |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const label = /REPLACE:([^|]+) \|/.exec(row)![1]!;
    const s = summarize(samples.get(label)!);
    out.push(row.replace(`REPLACE:${label}`, `${s.p50.toFixed(0)} / ${s.p95.toFixed(0)}`));
  }
  process.stdout.write(out.join('\n') + '\n');
  const json = arg('json');
  if (json)
    fs.writeFileSync(
      json,
      JSON.stringify({ date: new Date().toISOString(), root, symbol, loadavg: os.loadavg(), samples: Object.fromEntries(samples) }, null, 2),
    );
}

/** analyze_impact with and without the last level's skips: the same effects, and the requests each sent. */
async function checkPrune(gateway: Gateway, input: Record<string, unknown>, log: (s: string) => void): Promise<void> {
  const effects = async () => {
    for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
    gateway.runner.clearOperationCache();
    counts.requests = 0;
    const t = performance.now();
    const res = await gateway.run('analyze_impact', { ...input, max_results: 1000, output_format: 'json' });
    const impact = res.result['impact'] as { ripple_effects: { file: string; impact: string; depth: number; line?: number }[] };
    const list = impact.ripple_effects.map((e) => `${e.file} ${e.impact} ${e.depth}:${e.line}`);
    return { list, ms: performance.now() - t, requests: counts.requests };
  };
  const pruned = await effects();
  const proto = NewFilesOnly.prototype as unknown as { mayAddFiles: () => boolean };
  const skip = proto.mayAddFiles;
  proto.mayAddFiles = () => true;
  const whole = await effects().finally(() => (proto.mayAddFiles = skip));
  const same = JSON.stringify(pruned.list) === JSON.stringify(whole.list);
  log(
    `check-prune: ${same ? 'same' : 'DIFFERENT'} effects (${pruned.list.length} vs ${whole.list.length}); skipping ${pruned.ms.toFixed(0)} ms, ${pruned.requests} requests; asking all ${whole.ms.toFixed(0)} ms, ${whole.requests} requests`,
  );
  if (!same) {
    const a = new Set(pruned.list);
    const b = new Set(whole.list);
    log(`  only skipping: ${pruned.list.filter((x) => !b.has(x)).join(', ')}`);
    log(`  only asking all: ${whole.list.filter((x) => !a.has(x)).join(', ')}`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[wide-answers] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
