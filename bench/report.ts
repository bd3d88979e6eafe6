/**
 * The benchmark report: one latency table per workspace, the whole-workspace figures, and the
 * issue's targets with PASS/MISS. Targets are reported, never asserted.
 */
import type { LspgateSuiteResult } from './lspgate-suite.js';
import type { Summary } from './stats.js';
import { summarize } from './stats.js';
import type { KindSamples, SuiteResult } from './suite-types.js';
import { renderWarmLatency, type WarmLatencyResult, warmLatencySummary } from './warm-latency-suite.js';
import { type Kind, KINDS } from './workloads.js';

export interface WorkspaceReport {
  name: string;
  root: string;
  files: number;
  queries: number;
  reps: number;
  raw: SuiteResult;
  /** Other raw servers on the same queries (e.g. tsgo next to typescript-language-server). */
  rawAlternatives: SuiteResult[];
  lspgate?: LspgateSuiteResult | undefined;
  mcp?: SuiteResult | undefined;
  /** Catalog operations over MCP against an empty call; warm definition against raw (bench/warm-latency-suite.ts). */
  warmLatency?: WarmLatencyResult | undefined;
}

export interface TargetResult {
  workspace: string;
  target: string;
  measured: string;
  pass: boolean | undefined;
}

type Phase = keyof KindSamples;

function sum(s: SuiteResult | undefined, kind: Kind, phase: Phase): Summary | undefined {
  const samples = s?.kinds[kind]?.[phase];
  return samples && samples.length ? summarize(samples) : undefined;
}

export function fmt(n: number | undefined, digits?: number): string {
  if (n === undefined || Number.isNaN(n)) return '-';
  const d = digits ?? (n < 1 ? 3 : n < 10 ? 2 : n < 100 ? 1 : 0);
  return n.toFixed(d);
}

function cell(s: Summary | undefined): string {
  return s ? `${fmt(s.p50)}/${fmt(s.p95)}/${fmt(s.max)}` : '-';
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cols: string[]) => '| ' + cols.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n');
}

export function latencyTable(w: WorkspaceReport): string {
  const alt = w.rawAlternatives;
  const header = [
    'kind',
    `raw cold`,
    `raw warm`,
    ...alt.map((a) => `${a.serverId} warm`),
    'lspgate cold',
    'lspgate warm',
    'warm ratio',
    'lspgate hit',
    'mcp cold',
    'mcp hit',
    'raw/hit',
  ];
  const rows = KINDS.map((k) => {
    const rawWarm = sum(w.raw, k, 'warm');
    const lgWarm = sum(w.lspgate, k, 'warm');
    const hit = sum(w.lspgate, k, 'hit');
    return [
      k,
      cell(sum(w.raw, k, 'cold')),
      cell(rawWarm),
      ...alt.map((a) => cell(sum(a, k, 'warm'))),
      cell(sum(w.lspgate, k, 'cold')),
      cell(lgWarm),
      rawWarm && lgWarm ? `${fmt(lgWarm.p50 / rawWarm.p50, 2)}x` : '-',
      cell(hit),
      cell(sum(w.mcp, k, 'cold')),
      cell(sum(w.mcp, k, 'hit')),
      rawWarm && hit ? `${fmt(rawWarm.p50 / hit.p50, 0)}x` : '-',
    ];
  });
  return table(header, rows);
}

export function wholeTable(w: WorkspaceReport): string {
  const l = w.lspgate;
  const hit = l?.sessionHitMs?.length ? summarize(l.sessionHitMs) : undefined;
  const rows: string[][] = [
    ['start → ready → first outline (ms)', fmt(w.raw.startToReadyMs), fmt(l?.startToReadyMs), fmt(w.mcp?.startToReadyMs)],
    ...w.rawAlternatives.map((a) => [`  ${a.serverId} start → ready (ms)`, fmt(a.startToReadyMs), '', '']),
    [`whole workspace documentSymbol / catalog.build (${w.raw.catalogFiles ?? '?'} files, ms)`, fmt(w.raw.catalogMs), fmt(l?.catalogMs), ''],
    ...w.rawAlternatives.map((a) => [`  ${a.serverId} whole-workspace documentSymbol (ms)`, fmt(a.catalogMs), '', '']),
    ['catalog from the persisted snapshot, new gateway (ms)', '', fmt(l?.persistedCatalogMs), ''],
    ['one changed file re-cataloged (ms, median of 5)', '', fmt(l?.recatalogMs), ''],
    ['import graph: first build (imports-me answered, ms)', '', fmt(l?.importGraphBuildMs), ''],
    ['import graph: updated after one changed file (imports-me answered, ms, median of 5)', '', fmt(l?.importGraphUpdateMs), ''],
    ['cache hit in the session wrapper p50/p95 (ms)', '', hit ? `${fmt(hit.p50, 4)}/${fmt(hit.p95, 4)}` : '-', ''],
    ['peak RSS lspgate process (MB)', '', '', fmt(w.mcp?.selfRssMb, 0)],
    ['peak RSS server tree (MB, sum of VmHWM)', fmt(w.raw.serverRssMb, 0), '', fmt(w.mcp?.serverRssMb, 0)],
    ...w.rawAlternatives.map((a) => [`  ${a.serverId} server tree (MB)`, fmt(a.serverRssMb, 0), '', '']),
    ['errors by code', errs(w.raw), errs(l), errs(w.mcp)],
  ];
  if (l?.cache && l.cache.hits !== undefined) {
    const wired = l.cacheWiredByGateway ? 'wired by the gateway' : 'wired by the bench (withResponseCache)';
    rows.push([
      'response cache during the hit pass',
      '',
      `hits ${l.cache.hits}, misses ${l.cache.misses}, coalesced ${l.cache.coalesced}, ${fmt((l.cache.bytes ?? 0) / 1024, 0)} KiB; ${wired}`,
      '',
    ]);
  }
  if (l?.opCache) {
    const o = l.opCache;
    rows.push([
      'operation cache during the hit pass',
      '',
      `hits ${o.hits}, misses ${o.misses} (stale ${o.stale}), ${o.entries} entries, ${fmt((o.bytes ?? 0) / 1024, 0)} KiB`,
      '',
    ]);
  }
  return table(['figure', 'raw', 'lspgate', 'mcp'], rows);
}

function errs(s: SuiteResult | undefined): string {
  if (!s) return '-';
  const e = Object.entries(s.errors);
  return e.length ? e.map(([k, v]) => `${k}:${v}`).join(' ') : '0';
}

export function evaluateTargets(w: WorkspaceReport): TargetResult[] {
  const out: TargetResult[] = [];
  const ws = w.name;
  for (const k of ['definition', 'references', 'callers'] as const) {
    const raw = sum(w.raw, k, 'warm');
    const lg = sum(w.lspgate, k, 'warm');
    const bound = raw ? raw.p50 * 1.1 + 1 : undefined;
    out.push({
      workspace: ws,
      target: `warm ${k} p50 ≤ 1.10 × raw + 1 ms`,
      measured: raw && lg ? `${fmt(lg.p50)} ms vs bound ${fmt(bound)} ms (raw ${fmt(raw.p50)})` : 'not measured',
      pass: raw && lg && bound !== undefined ? lg.p50 <= bound : undefined,
    });
  }
  for (const k of ['definition', 'references', 'callers'] as const) {
    const raw = sum(w.raw, k, 'warm');
    const hit = sum(w.lspgate, k, 'hit');
    out.push({
      workspace: ws,
      target: `repeated ${k} ≥ 50x faster than raw (operation, p50)`,
      measured: raw && hit ? `${fmt(raw.p50 / hit.p50, 1)}x (raw ${fmt(raw.p50)} ms, hit ${fmt(hit.p50)} ms)` : 'not measured',
      pass: raw && hit ? raw.p50 / hit.p50 >= 50 : undefined,
    });
  }
  const rawRefs = sum(w.raw, 'references', 'warm');
  const sessionHit = w.lspgate?.sessionHitMs?.length ? summarize(w.lspgate.sessionHitMs) : undefined;
  out.push({
    workspace: ws,
    target: 'repeated request ≥ 50x faster than raw (session cache hit vs raw references, p50)',
    measured: rawRefs && sessionHit ? `${fmt(rawRefs.p50 / sessionHit.p50, 0)}x (hit ${fmt(sessionHit.p50, 4)} ms)` : 'not measured',
    pass: rawRefs && sessionHit ? rawRefs.p50 / sessionHit.p50 >= 50 : undefined,
  });
  const rc = w.raw.catalogMs;
  const lc = w.lspgate?.catalogMs;
  out.push({
    workspace: ws,
    target: 'whole-workspace catalog ≤ 1.2 × raw documentSymbol',
    measured: rc !== undefined && lc !== undefined ? `${fmt(lc)} ms vs raw ${fmt(rc)} ms = ${fmt(lc / rc, 2)}x` : 'not measured',
    pass: rc !== undefined && lc !== undefined ? lc <= rc * 1.2 : undefined,
  });
  const re = w.lspgate?.recatalogMs;
  out.push({
    workspace: ws,
    target: 'one changed file re-cataloged ≤ 50 ms',
    measured: re !== undefined ? `${fmt(re)} ms` : 'not measured',
    pass: re !== undefined ? re <= 50 : undefined,
  });
  const ig = w.lspgate?.importGraphUpdateMs;
  out.push({
    workspace: ws,
    target: 'import graph updated for one changed file ≤ 50 ms',
    measured: ig !== undefined ? `${fmt(ig)} ms` : 'not measured',
    pass: ig !== undefined ? ig <= 50 : undefined,
  });
  for (const k of ['callsMe3', 'impact3'] as const) {
    const raw = sum(w.raw, k, 'warm');
    const lg = sum(w.lspgate, k, 'warm');
    out.push({
      workspace: ws,
      target: `warm ${k === 'callsMe3' ? 'calls-me' : 'analyze_impact'} depth 3 p50 ≤ 3 × its raw requests`,
      measured: raw && lg ? `${fmt(lg.p50)} ms vs raw ${fmt(raw.p50)} ms = ${fmt(lg.p50 / raw.p50, 2)}x` : 'not measured',
      pass: raw && lg ? lg.p50 <= raw.p50 * 3 : undefined,
    });
  }
  const rss = w.mcp?.selfRssMb;
  out.push({
    workspace: ws,
    target: `lspgate RSS ≤ 150 MB (${w.files} files)`,
    measured: rss !== undefined ? `${fmt(rss, 0)} MB` : 'not measured',
    pass: rss !== undefined ? rss <= 150 : undefined,
  });
  return out;
}

export function targetsTable(targets: TargetResult[]): string {
  return table(
    ['workspace', 'target', 'measured', 'result'],
    targets.map((t) => [t.workspace, t.target, t.measured, t.pass === undefined ? 'n/a' : t.pass ? 'PASS' : 'MISS']),
  );
}

export function renderReport(workspaces: WorkspaceReport[], targets: TargetResult[], header = ''): string {
  const parts: string[] = header ? [header, ''] : [];
  for (const w of workspaces) {
    parts.push(`## ${w.name} — ${w.files} files, ${w.queries} queries × ${w.reps} warm repetitions, server ${w.raw.serverId}`);
    parts.push(
      'Latency in ms as p50/p95/max. cold = first time each query (fresh server); warm = asked again with the server warm and the ' +
        'answer not cached (lspgate: workspace-wide cached answers invalidated, file outlines kept; documentSymbol: cache cleared), ' +
        'each lspgate warm call paired with the raw call of the same query, the raw one first on every other query; ' +
        'hit = the same call again, answered from the operation cache (whole result, stamps re-checked) or else the response cache. raw = the server driven directly over JSON-RPC; ' +
        'warm ratio = lspgate warm p50 / raw warm p50; raw/hit = raw warm p50 / lspgate hit p50. typeDetails and functionDetails: ' +
        'raw = documentSymbol + hover (a lower bound; lspgate also hovers members and builds the descriptor). callsMe3 = query_relationships ' +
        'calls-me to depth 3, raw = prepareCallHierarchy + incomingCalls of every caller to depth 3, one request at a time, each item once; ' +
        'impact3 = analyze_impact modify to depth 3, raw = references + the same incoming-call walk.',
    );
    parts.push(latencyTable(w));
    parts.push('');
    parts.push(wholeTable(w));
    parts.push('');
    if (w.warmLatency) parts.push(renderWarmLatency(w.warmLatency, `${w.name}: catalog operations over MCP stdio vs an empty call; warm definition vs raw`));
  }
  parts.push('## Targets');
  parts.push(targetsTable(targets));
  return parts.join('\n') + '\n';
}

/** The JSON file: summaries (not raw samples) per column, kind and phase. */
export function toJson(workspaces: WorkspaceReport[], targets: TargetResult[], meta: Record<string, unknown>): unknown {
  const suite = (s: SuiteResult | undefined) =>
    s && {
      ...s,
      kinds: Object.fromEntries(Object.entries(s.kinds).map(([k, v]) => [k, { cold: summarize(v.cold), warm: summarize(v.warm), hit: summarize(v.hit) }])),
      sessionHitMs: s.sessionHitMs?.length ? summarize(s.sessionHitMs) : undefined,
    };
  return {
    ...meta,
    workspaces: workspaces.map((w) => ({
      ...w,
      raw: suite(w.raw),
      rawAlternatives: w.rawAlternatives.map(suite),
      lspgate: suite(w.lspgate),
      mcp: suite(w.mcp),
      warmLatency: w.warmLatency && warmLatencySummary(w.warmLatency),
    })),
    targets,
  };
}
