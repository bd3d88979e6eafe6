/**
 * Checks of `npm run truth` that apply to every language: the whole-workspace analyses answer
 * (partial when a file could not be, never failing whole), the import graph against the compiler,
 * call trees against a raw server (each edge once, at its minimal depth), impact's direct and
 * transitive files, changed_symbols naming deleted declarations, citations judged against what
 * they cited, get_context without repeats.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { loadShippedEntry, RawLspClient } from '../raw-client.js';
import { failureOf, partialOf, type Result, type TruthContext } from './context.js';
import { git, GO_MODULE } from './corpora.js';
import { rawCallsMe } from './oracles.js';
import { compareSets, share } from './table.js';

/** The function each language's call checks start from: widely called, so the walk is deep. */
export const CALL_TARGET: Record<string, { id: string; depth: number } | undefined> = {
  ts: { id: 'core/util.ts::normalizeParams#function', depth: 3 },
  go: { id: 'go/token/position.go::Pos.IsValid#method', depth: 2 },
  py: { id: 'email/_header_value_parser.py::get_cfws#function', depth: 3 },
  php: undefined,
};

/** Defect 1: each whole-workspace analysis answers; a file it could not answer for is `skipped`. */
export async function workspaceAnalyses(ctx: TruthContext): Promise<void> {
  const anyFile =
    ctx.lang === 'go' ? 'go/token/position.go' : ctx.lang === 'ts' ? 'core/util.ts' : ctx.lang === 'py' ? 'email/utils.py' : 'Illuminate/Support/Str.php';
  const excluded = (ctx.truth.go?.files ?? []).filter((f) => f.excluded).map((f) => f.file);
  const calls: [string, Record<string, unknown>][] = [
    ['find_dead_code', { max_results: 1000 }],
    ['coverage_report', {}],
    ['project_context', {}],
    ['validate_references', { max_files: 1000 }],
    ['find_patterns', {}],
    ['render_diagram', { format: 'json', max_nodes: 500 }],
    ['query_relationships', { query_type: 'depends-on-me', target: anyFile, max_depth: 2 }],
    ['analyze_impact', { element: anyFile }],
    ['analyze_complexity', { element: anyFile }],
  ];
  for (const [op, input] of calls) {
    const o = await ctx.run(op, input);
    const skipped: string[] = o.ok ? ((o.result.skipped as { file: string }[] | undefined) ?? []).map((s) => s.file) : [];
    let agreement = o.ok ? 'answered' : 'no answer';
    if (o.ok && excluded.length && ['find_dead_code', 'coverage_report'].includes(op)) {
      // gopls answers for some build-excluded files (mime's type_windows.go) and not for others
      // ("no package metadata"): those must be listed, the others are answered
      agreement = `build-excluded files: ${excluded.filter((f) => skipped.includes(f)).length} skipped, ${excluded.filter((f) => !skipped.includes(f)).length} answered by the server`;
    }
    ctx.add({
      analysis: op,
      defect: '1 per-file failures',
      truth: excluded.length ? `go list: ${excluded.length} files excluded by build constraints` : 'answers at all',
      agreement,
      partial: o.ok ? partialOf(o.result) : '-',
      failures: failureOf(o),
    });
  }
}

/** Importing file → workspace files (Go: package directories) by the compiler's own resolution. */
function truthImports(ctx: TruthContext): Map<string, Set<string>> {
  if (ctx.truth.ts) return ctx.truth.ts.imports;
  if (ctx.truth.php) return ctx.truth.php;
  const out = new Map<string, Set<string>>();
  if (ctx.truth.py) for (const [f, v] of Object.entries(ctx.truth.py.files)) if (v.imports.length) out.set(f, new Set(v.imports));
  for (const f of ctx.truth.go?.files ?? []) {
    if (f.excluded) continue;
    const dirs = f.imports.filter((i) => i.startsWith(`${GO_MODULE}/`)).map((i) => i.slice(GO_MODULE.length + 1));
    if (dirs.length) out.set(f.file, new Set(dirs));
  }
  return out;
}

/** Defect 1 and 11: project_context's dependency map (the import graph) against the compiler. */
export async function importGraph(ctx: TruthContext): Promise<void> {
  const o = await ctx.run('project_context', { max_dependencies: 5000 });
  const truth = truthImports(ctx);
  const edges = (m: Iterable<[string, Iterable<string>]>) => [...m].flatMap(([f, ts]) => [...ts].map((t) => `${f} -> ${t}`));
  const mine = o.ok ? edges(Object.entries(o.result.context.dependencies as Record<string, string[]>)) : [];
  const c = compareSets(mine, edges(truth));
  const source = {
    ts: 'tsc --traceResolution',
    go: 'go list + go/parser',
    py: 'ast (PEP 328 relative imports)',
    php: 'use + require, by the declarations of each file',
  }[ctx.lang];
  ctx.add({
    analysis: 'import graph (project_context.dependencies)',
    defect: '1, 11 imports',
    truth: source,
    agreement: `${c.text}${c.onlyLspgate.length || c.onlyTruth.length ? `; e.g. ${[...c.onlyLspgate.slice(0, 1).map((x) => `lspgate ${x}`), ...c.onlyTruth.slice(0, 1).map((x) => `truth ${x}`)].join(', ')}` : ''}`,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o),
  });
}

async function rawClientFor(ctx: TruthContext, abs: string): Promise<RawLspClient> {
  const serverId = (await ctx.gateway.context.broker.sessionFor(abs, ctx.root)).serverId;
  const raw = await RawLspClient.start(loadShippedEntry(serverId), ctx.root, path.join(ctx.cacheDir, 'raw'));
  await raw.waitReady(async () => {
    await raw.open(abs);
    return (await raw.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } })).result;
  });
  return raw;
}

/**
 * An edge of a calls-me answer as `caller@file -> callee@file` (short names: the raw server's items
 * carry the short name; a node of lspgate's without a catalog id — tsserver's item of an overloaded
 * function, module-level code — is known by its name and file too).
 */
function edgeKeys(rows: Result[], target: string): string[] {
  const short = (n: string) => n.split('.').pop()!;
  const fileOf = new Map<string, string>([[target, target.split('::')[0]!]]);
  for (const r of rows) fileOf.set(r.from_symbol_id ?? `${r.from}@${r.file}`, r.file);
  return rows.map((r) => {
    const parent = rows.find((x) => x.from === r.to && x.depth === r.depth - 1);
    const to = r.to_symbol_id ?? parent?.from_symbol_id ?? r.to;
    // a caller without a catalog id (an anonymous function) is in the file of its own row
    const toFile = r.to_symbol_id ? r.to_symbol_id.split('::')[0] : (fileOf.get(to) ?? parent?.file ?? '?');
    return `${short(r.from)}@${r.file} -> ${short(r.to)}@${toFile}`;
  });
}

/** `from -> to` by symbol id; a caller without one (an anonymous function) by name, file and call line. */
function idKeys(rows: Result[]): string[] {
  const idOf = (r: Result) => r.from_symbol_id ?? `${r.from}@${r.file}:${r.line}`;
  return rows.map((r) => {
    const parent = r.to_symbol_id ? undefined : rows.find((x) => x.from === r.to && x.depth === r.depth - 1);
    return `${idOf(r)} -> ${r.to_symbol_id ?? (parent ? idOf(parent) : r.to)}`;
  });
}

/** Defect 5: calls-me rows against the raw server's incoming calls, breadth first; each edge once, at its minimal depth. */
export async function callTrees(ctx: TruthContext): Promise<void> {
  const target = CALL_TARGET[ctx.lang];
  if (!target) return;
  const o = await ctx.allPages('query_relationships', { query_type: 'calls-me', target: target.id, max_depth: target.depth, max_results: 1000 }, 'results');
  const rows = o.items ?? [];
  const keys = edgeKeys(rows, target.id);
  // repeats and depths by identity: names collide (go/ast's many `End` methods in one file)
  const ids = idKeys(rows);
  const dups = ids.length - new Set(ids).size;
  // minimal depth: breadth first over the answer's own edges from the target
  const node = (k: string, side: 0 | 1) => k.split(' -> ')[side]!;
  const start = target.id;
  const dist = new Map<string, number>([[start, 0]]);
  for (let d = 1, grew = true; grew; d++) {
    grew = false;
    for (const k of ids) {
      if (dist.get(node(k, 1)) !== d - 1 || dist.has(node(k, 0))) continue;
      dist.set(node(k, 0), d);
      grew = true;
    }
  }
  const notMinimal = rows.filter((r, i) => r.depth !== (dist.get(node(ids[i]!, 1)) ?? 99) + 1).length;
  const noId = rows.filter((r) => !r.from_symbol_id).length;
  const sym = await ctx.run('find_definition', { symbol_id: target.id });
  let agreement = 'no raw answer';
  if (sym.ok) {
    const d = sym.result.definitions[0];
    const abs = path.join(ctx.root, d.file);
    const raw = await rawClientFor(ctx, abs);
    try {
      const rawEdges = await rawCallsMe(raw, ctx.root, abs, { line: d.line - 1, character: d.column - 1 }, target.depth);
      const c = compareSets(
        keys.map((k, i) => `${k} @${rows[i]!.depth}`),
        [...rawEdges].map(([e, dd]) => `${e} @${dd}`),
      );
      agreement = `edges with depth vs raw server: ${c.text}${c.onlyLspgate.length || c.onlyTruth.length ? `; e.g. ${[...c.onlyLspgate.slice(0, 1).map((x) => `lspgate ${x}`), ...c.onlyTruth.slice(0, 1).map((x) => `raw ${x}`)].join(', ')}` : ''}`;
    } finally {
      await raw.stop();
    }
  }
  ctx.add({
    analysis: `query_relationships calls-me depth ${target.depth} (${target.id.split('::')[1]})`,
    defect: '5 repeats, minimal depth',
    truth: 'raw server incoming calls, breadth first',
    agreement: `${rows.length} rows (${noId} callers without a catalog id), ${dups} repeated, ${notMinimal} not at minimal depth; ${agreement}`,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o),
  });
}

/** Defect 6: impact's direct files are the files that use the element (its references), the others transitive. */
export async function impact(ctx: TruthContext): Promise<void> {
  const target = CALL_TARGET[ctx.lang];
  if (!target) return;
  const o = await ctx.run('analyze_impact', { element: target.id, operation: 'delete', max_depth: 2, max_results: 1000 });
  const refs = await ctx.run('find_references', { symbol_id: target.id, include_declaration: false, max_results: 5000 });
  let agreement = '-';
  if (o.ok && refs.ok) {
    const i = o.result.impact;
    const direct = (i.ripple_effects as Result[]).filter((e) => e.depth === 1).map((e) => e.file);
    const c = compareSets(
      direct,
      (refs.result.references as Result[]).filter((r) => !r.external).map((r) => r.file),
    );
    const said = String(i.risk_reason).includes(`${i.direct_files} file(s) use it directly`);
    agreement = `direct files vs files of the references: ${c.text}; ${i.direct_files} direct + ${i.transitive_files} transitive = ${i.total_affected_files}${said ? ', risk_reason says both' : ', RISK_REASON DOES NOT SAY THEM'}`;
  }
  ctx.add({
    analysis: 'analyze_impact delete',
    defect: '6 impact wording',
    truth: 'find_references of the element',
    agreement,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o.ok ? refs : o),
  });
}

/** A few declarations to delete: the catalog's top-level functions of a file with neighbours on both sides. */
async function deletable(ctx: TruthContext, count: number): Promise<{ file: string; id: string; line: number; end: number }[]> {
  const all = await (await ctx.gateway.workspaceFor(undefined)).catalog.all();
  const byFile = new Map<string, typeof all>();
  for (const s of all) if (s.kind === 'function' && !s.parent && s.end_line - s.line >= 2) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  const out: { file: string; id: string; line: number; end: number }[] = [];
  for (const [file, list] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    if (list.length < 3 || out.length >= count) continue;
    const mid = list.sort((a, b) => a.line - b.line)[1]!;
    out.push({ file, id: mid.symbol_id, line: mid.line, end: mid.end_line });
  }
  return out;
}

/** Defect 7: deleted declarations are named `deleted`; nothing else is reported changed. */
export async function changedSymbols(ctx: TruthContext): Promise<void> {
  const victims = await deletable(ctx, 3);
  for (const v of victims) {
    const file = path.join(ctx.root, v.file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.splice(v.line - 1, v.end - v.line + 1);
    fs.writeFileSync(file, lines.join('\n'));
  }
  try {
    const o = await ctx.run('changed_symbols', { impact_depth: 1, max_results: 200 });
    const listed = o.ok ? (o.result.symbols as Result[]).map((s) => `${s.change} ${s.symbol_id.replace(/#.*$/, '')}`) : [];
    const c = compareSets(
      listed,
      victims.map((v) => `deleted ${v.id.replace(/#.*$/, '')}`),
    );
    ctx.add({
      analysis: 'changed_symbols after deleting 3 functions',
      defect: '7 deleted symbols',
      truth: 'the edit itself',
      agreement: c.text + (c.onlyLspgate.length ? `; extra: ${c.onlyLspgate.slice(0, 2).join(', ')}` : ''),
      partial: o.ok ? partialOf(o.result) : '-',
      failures: failureOf(o),
    });
  } finally {
    git(ctx.root, 'checkout', '--', '.');
  }
}

/** Defect 8: a citation edited in place is stale, one whose file was not touched is fresh. */
export async function citations(ctx: TruthContext): Promise<void> {
  const query = { ts: 'normalize params error message', go: 'position is valid', py: 'parse an address header', php: 'convert a string to studly case' }[
    ctx.lang
  ];
  const o = await ctx.run('search_code', { query, limit: 10 });
  if (!o.ok) return ctx.add({ analysis: 'verify_citation', defect: '8 citations', truth: '-', agreement: '-', partial: '-', failures: failureOf(o) });
  const hits = o.result.hits as Result[];
  const edited = hits[0]!;
  const other = hits.find((h) => h.citation.file !== edited.citation.file) ?? hits[1]!;
  const file = path.join(ctx.root, edited.citation.file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = edited.citation.start_line; // same number of lines: an edit in place
  lines[at - 1] = `${lines[at - 1]} `;
  fs.writeFileSync(file, lines.join('\n'));
  let right = 0;
  const verdicts: string[] = [];
  try {
    const a = await ctx.run('verify_citation', { citation: edited.citation });
    const b = await ctx.run('verify_citation', { citation: other.citation });
    if (a.ok && a.result.stale === true) right++;
    if (b.ok && b.result.stale === false) right++;
    verdicts.push(`edited: ${a.ok ? `stale ${a.result.stale}` : a.code}`, `untouched: ${b.ok ? `stale ${b.result.stale}` : b.code}`);
  } finally {
    git(ctx.root, 'checkout', '--', '.');
  }
  const c = await ctx.run('verify_citation', { citation: edited.citation });
  if (c.ok && c.result.stale === false) right++;
  verdicts.push(`restored: ${c.ok ? `stale ${c.result.stale}` : c.code}`);
  ctx.add({
    analysis: 'verify_citation (no content_sha256)',
    defect: '8 citations',
    truth: 'the edit itself',
    agreement: `${share(right, 3)} verdicts right (${verdicts.join(', ')})`,
    partial: '-',
    failures: '-',
  });
}

/** Defect 11: get_context lists no caller's call site again under references. */
export async function getContext(ctx: TruthContext): Promise<void> {
  const target = CALL_TARGET[ctx.lang];
  if (!target) return;
  const o = await ctx.run('get_context', { symbol_id: target.id, max_tokens: 100000 });
  if (!o.ok) return ctx.add({ analysis: 'get_context', defect: '11 repeats', truth: '-', agreement: '-', partial: '-', failures: failureOf(o) });
  const sites = new Set(((o.result.callers as Result[] | undefined) ?? []).flatMap((c) => (c.call_lines as number[]).map((l) => `${c.file}:${l}`)));
  const repeated = ((o.result.references as Result[] | undefined) ?? []).filter((r) => sites.has(`${r.file}:${r.line}`)).length;
  ctx.add({
    analysis: 'get_context',
    defect: '11 repeats',
    truth: 'its own callers part',
    agreement: `${repeated} of ${(o.result.references as Result[] | undefined)?.length ?? 0} references repeat a caller's call site (${sites.size} call sites)`,
    partial: partialOf(o.result),
    failures: '-',
  });
}
