/**
 * Checks of `npm run truth` that need one language's own truth: diagnostics from a cold start
 * against tsc and the planted errors, dead code against go/types, overrides and complexity against
 * Python's ast, Go tags against `go doc` / `go vet`, ambiguity lists against the TypeScript
 * parser, callers and rename sites outside pyright's project against a raw pyright that has every
 * file open, PHP references against a raw intelephense.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import ts from 'typescript';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest, type Location, ReferencesRequest } from 'vscode-languageserver-protocol';

import { loadShippedEntry, RawLspClient } from '../raw-client.js';
import { failureOf, partialOf, type Result, type TruthContext } from './context.js';
import { git, GO_BIN, goEnv } from './corpora.js';
import { compareSets, share } from './table.js';

const COLD_RUNS = 3;
const stripKind = (id: string) => id.replace(/#[a-z_]+(~\d+)?$/, '');

/** Defect 2: a planted error found by a call made right after start, in each of several cold runs. */
export async function diagnosticsCold(ctx: TruthContext): Promise<void> {
  const planted = ctx.corpus.planted;
  if (!planted) return;
  let found = 0;
  const failures: string[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const cold = await ctx.cold();
    try {
      if (ctx.lang === 'ts') {
        const o = await cold.run('get_diagnostics', { file: planted.file, severity: 'error' });
        if (!o.ok) failures.push(failureOf(o));
        else if ((o.result.files[0]?.diagnostics as Result[] | undefined)?.some((d) => d.line === planted.line)) found++;
      } else {
        const o = await cold.run('validate_references', { pattern: planted.file });
        if (!o.ok) failures.push(failureOf(o));
        else if ((o.result.validation.errors as Result[]).some((e) => e.reference === planted.name)) found++;
      }
    } finally {
      await cold.close();
    }
  }
  const op = ctx.lang === 'ts' ? 'get_diagnostics' : 'validate_references';
  const tsc = ctx.truth.ts?.errors.get(planted.file)?.some((e) => e.startsWith(`${planted.line} `));
  ctx.add({
    analysis: `${op} right after start`,
    defect: '2 broken file reported clean',
    truth: ctx.lang === 'ts' ? `tsc reports the planted error: ${tsc ? 'yes' : 'NO'}` : 'the planted undefined name',
    agreement: `found in ${found}/${COLD_RUNS} cold runs`,
    partial: '-',
    failures: failures.join('; ') || '-',
  });
}

/** Defect 2 (warm): get_diagnostics of the files tsc reports errors in, and others, against tsc. */
export async function diagnosticsVsTsc(ctx: TruthContext): Promise<void> {
  const errors = ctx.truth.ts?.errors;
  if (!errors) return;
  const files = [...(await (await ctx.gateway.workspaceFor(undefined)).catalog.files()).keys()].filter((f) => f.endsWith('.ts')).sort();
  const sample = [...new Set([...errors.keys(), ...files.filter((_, i) => i % Math.max(1, Math.floor(files.length / 30)) === 0)])].slice(0, 50);
  const o = await ctx.run('get_diagnostics', { files: sample, severity: 'error', max_files: 50, max_results: 5000 });
  const mine = o.ok ? (o.result.files as Result[]).flatMap((f) => (f.diagnostics as Result[]).map((d) => `${f.file}:${d.line} ${d.code}`)) : [];
  const truth = sample.flatMap((f) => (errors.get(f) ?? []).map((e) => `${f}:${e}`));
  ctx.add({
    analysis: `get_diagnostics of ${sample.length} files (errors)`,
    defect: '2 diagnostics',
    truth: 'tsc --noEmit',
    agreement: compareSets(mine, truth).text,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o),
  });
}

/** Defect 4: Go functions reported dead against go/types (unexported, no use outside their own body). */
export async function goDeadCode(ctx: TruthContext): Promise<void> {
  const go = ctx.truth.go;
  if (!go) return;
  const excluded = new Set(go.files.filter((f) => f.excluded).map((f) => f.file));
  const o = await ctx.run('find_dead_code', { category: 'dead', max_results: 1000 });
  const dead = o.ok ? (o.result.candidates as Result[]).filter((c) => c.kind === 'function') : [];
  // go/types checks what this machine's build compiles: functions of build-excluded files apart
  const mine = dead.filter((c) => !excluded.has(c.file)).map((c) => stripKind(c.symbol_id));
  const inExcluded = dead.length - mine.length;
  // not API: unexported, or exported from an internal/ package (lspgate's exported_api rule)
  const truth = go.funcs
    .filter((f) => !f.recv && (!f.exported || /(^|\/)internal\//.test(f.file)) && f.uses === 0 && f.name !== 'init' && f.name !== 'main')
    .map((f) => f.id);
  ctx.add({
    analysis: 'find_dead_code (functions)',
    defect: '4 dead code',
    truth: 'go/types: not API, unused outside their body',
    agreement: `${compareSets(mine, truth).text}; ${inExcluded} more in build-excluded files`,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o),
  });
}

/** Calls: callers one level up against go/types' static calls, for functions that have some. */
export async function goCallers(ctx: TruthContext): Promise<void> {
  const go = ctx.truth.go;
  if (!go) return;
  // functions only: gopls's incoming calls of a method include the calls through an interface it
  // implements (ast.Node's Pos() for every node type), which a static oracle cannot see
  // (and none under a `build/` directory: the catalog leaves such directories out, go/build too)
  const called = go.funcs.filter((f) => f.callers.length > 0 && !f.recv && !f.file.startsWith('mime/') && !/(^|\/)build\//.test(f.file));
  const sample = called.filter((_, i) => i % Math.max(1, Math.floor(called.length / 25)) === 0).slice(0, 25);
  const mine: string[] = [];
  const truth: string[] = [];
  const failures: string[] = [];
  let recursive = 0;
  const catalog = (await ctx.gateway.workspaceFor(undefined)).catalog;
  for (const f of sample) {
    const [file, qualified] = f.id.split('::') as [string, string];
    const sym = (await catalog.fileSymbols(file)).find((s) => s.qualified_name === qualified);
    if (!sym) continue;
    const o = await ctx.run('query_relationships', { query_type: 'calls-me', target: sym.symbol_id, max_depth: 1, max_results: 1000 });
    if (!o.ok) {
      failures.push(`${f.id}: ${o.code}`);
      continue;
    }
    for (const r of o.result.results as Result[]) {
      const from = stripKind(r.from_symbol_id ?? r.from);
      // the oracle leaves recursion out; gopls lists a recursive function among its own callers
      if (from === f.id) recursive++;
      else mine.push(`${f.id} <- ${from}`);
    }
    for (const c of new Set(f.callers)) truth.push(`${f.id} <- ${c}`);
  }
  const c = compareSets(mine, truth);
  const eg = [...c.onlyLspgate.slice(0, 1).map((x) => `lspgate ${x}`), ...c.onlyTruth.slice(0, 1).map((x) => `go/types ${x}`)].join(', ');
  ctx.add({
    analysis: `calls-me depth 1 (${sample.length} functions, no methods)`,
    defect: 'calls baseline',
    truth: 'go/types static calls',
    agreement: `${c.text}${eg ? `; e.g. ${eg}` : ''}; ${recursive} recursive self-call(s) set aside`,
    partial: '-',
    failures: failures.slice(0, 3).join('; ') || '-',
  });
}

/** Defect 4: no override of a workspace method is dead without saying so; no reason invents a registration. */
export async function pyDeadOverrides(ctx: TruthContext): Promise<void> {
  const py = ctx.truth.py;
  if (!py) return;
  const overrides = new Set(py.overrides.map((x) => x.method));
  const o = await ctx.run('find_dead_code', { max_results: 1000 });
  const dead = o.ok ? (o.result.candidates as Result[]).filter((c) => c.category === 'dead') : [];
  const deadOverrides = dead.filter((c) => overrides.has(stripKind(c.symbol_id)));
  const unexplained = deadOverrides.filter((c) => !String(c.reason).includes('it overrides')).length;
  const invented = o.ok ? (o.result.candidates as Result[]).filter((c) => /registered by/.test(String(c.reason))).length : 0;
  ctx.add({
    analysis: 'find_dead_code (overrides, reasons)',
    defect: '4 dead code',
    truth: `ast: ${overrides.size} methods override a workspace base method`,
    agreement: `${deadOverrides.length} overrides reported dead, ${unexplained} without the "overrides …, which nothing references either" observation; ${invented} reasons say "registered by"`,
    partial: o.ok ? partialOf(o.result) : '-',
    failures: failureOf(o),
  });
}

/** Defect 11: Python lines of code (docstrings left out) and cyclomatic complexity against ast; test_coverage never null. */
export async function pyComplexity(ctx: TruthContext): Promise<void> {
  const py = ctx.truth.py;
  if (!py) return;
  const top = py.funcs.filter((f) => stripKind(f.id).split('::')[1]!.split('.').length <= 2 && !f.file.startsWith('email/mime'));
  const sample = top.filter((_, i) => i % Math.max(1, Math.floor(top.length / 40)) === 0).slice(0, 40);
  let loc = 0;
  let cc = 0;
  let nulls = 0;
  let asked = 0;
  const failures: string[] = [];
  const catalog = (await ctx.gateway.workspaceFor(undefined)).catalog;
  for (const f of sample) {
    const [file, qualified] = f.id.split('::') as [string, string];
    // a @property is a `property` to pyright: the catalog says which kind the id has
    const sym = (await catalog.fileSymbols(file)).find((s) => s.qualified_name === qualified);
    const o = await ctx.run('analyze_complexity', { element: sym?.symbol_id ?? `${f.id}#function` });
    if (!o.ok) {
      failures.push(`${f.id}: ${o.code}`);
      continue;
    }
    asked++;
    if (o.result.context.lines_of_code === f.loc) loc++;
    if (o.result.context.cyclomatic_complexity === f.cyclomatic) cc++;
    if (o.result.context.test_coverage === null) nulls++;
  }
  ctx.add({
    analysis: `analyze_complexity (${sample.length} functions)`,
    defect: '11 line counts',
    truth: 'ast (docstrings and comments are not code)',
    agreement: `lines of code ${share(loc, asked)}, cyclomatic ${share(cc, asked)}; test_coverage null ${nulls} times`,
    partial: '-',
    failures: failures.slice(0, 3).join('; ') || '-',
  });
}

/** Defect 11: Go tags are directives that go doc leaves out and go vet accepts. */
export async function goTags(ctx: TruthContext): Promise<void> {
  if (ctx.lang !== 'go') return;
  const o = await ctx.run('tag_elements', { path: 'go/token', dry_run: false, max_results: 1000 });
  try {
    if (!o.ok) return ctx.add({ analysis: 'tag_elements (go/token)', defect: '11 Go tags', truth: '-', agreement: '-', partial: '-', failures: failureOf(o) });
    const tags = (o.result.elements as Result[]).filter((e) => e.action === 'tag');
    const directives = tags.filter((e) => String(e.tag).startsWith('//lspgate:tag @')).length;
    const doc = execFileSync(GO_BIN, ['doc', '-all', './go/token'], { cwd: ctx.root, env: goEnv() }).toString();
    let vet = 'go vet ok';
    try {
      execFileSync(GO_BIN, ['vet', './go/token'], { cwd: ctx.root, env: goEnv(), stdio: 'pipe' });
    } catch (e) {
      vet = `go vet: ${String((e as { stderr?: Buffer }).stderr ?? e).slice(0, 80)}`;
    }
    ctx.add({
      analysis: `tag_elements (go/token, ${tags.length} tags written)`,
      defect: '11 Go tags',
      truth: 'go doc -all, go vet',
      agreement: `directives ${share(directives, tags.length)}; tag text in go doc: ${/lspgate:tag|@(Fn|Mt|Cl|If|Ty)\//.test(doc) ? 'YES' : 'none'}; ${vet}`,
      partial: partialOf(o.result),
      failures: '-',
    });
  } finally {
    git(ctx.root, 'checkout', '--', '.');
  }
}

/** Public to importers by the TypeScript parser: exported declaration or container, member not private/protected/#x/_x. */
function tsPublic(root: string, file: string, line: number, name: string): boolean | undefined {
  const abs = path.join(root, file);
  const sf = ts.createSourceFile(abs, fs.readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
  let found: ts.Node | undefined;
  const visit = (n: ts.Node) => {
    const id = (n as ts.NamedDeclaration).name;
    if (id && ts.isIdentifier(id) && id.text === name && sf.getLineAndCharacterOfPosition(id.getStart(sf)).line + 1 === line) found = n;
    if (!found) ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!found) return undefined;
  const flags = ts.getCombinedModifierFlags(found as ts.Declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || name.startsWith('_') || name.startsWith('#')) return false;
  let top: ts.Node = found;
  while (top.parent && !ts.isSourceFile(top.parent)) top = top.parent;
  const exported = (n: ts.Node) =>
    !!(ts.getCombinedModifierFlags(n as ts.Declaration) & ts.ModifierFlags.Export) ||
    (ts.isVariableStatement(n) && !!n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  return exported(top);
}

/** Defect 10: in an AMBIGUOUS_SYMBOL list, a public exported declaration comes first when there is one. */
export async function tsAmbiguity(ctx: TruthContext): Promise<void> {
  if (ctx.lang !== 'ts') return;
  const all = await (await ctx.gateway.workspaceFor(undefined)).catalog.all();
  const count = new Map<string, number>();
  for (const s of all) if (s.kind === 'method' || s.kind === 'function') count.set(s.name, (count.get(s.name) ?? 0) + 1);
  const names = [...count]
    .filter(([n, c]) => c >= 3 && /^\w+$/.test(n))
    .map(([n]) => n)
    .sort()
    .slice(0, 80);
  let ambiguous = 0;
  let withPublic = 0;
  let publicFirst = 0;
  for (const name of names) {
    const o = await ctx.run('find_callers', { symbol: name });
    if (o.ok || o.code !== 'AMBIGUOUS_SYMBOL') continue;
    ambiguous++;
    const cands = (o.details?.candidates as Result[] | undefined) ?? [];
    const key = (c: Result) => `${c.kind}/${c.scope}/${c.role}`;
    const leaders = cands.filter((c) => key(c) === key(cands[0]!));
    const pub = leaders.map((c) => tsPublic(ctx.root, c.file, c.line, c.name));
    if (!pub.some((p) => p)) continue;
    withPublic++;
    if (pub[0]) publicFirst++;
  }
  ctx.add({
    analysis: `AMBIGUOUS_SYMBOL order (find_callers of ${names.length} shared names)`,
    defect: '10 ambiguity lists',
    truth: 'TypeScript parser: export and member modifiers',
    agreement: `${ambiguous} ambiguous; where a tied leader is public and exported it is listed first in ${share(publicFirst, withPublic)}`,
    partial: '-',
    failures: '-',
  });
}

async function allOpenPyright(ctx: TruthContext, dir: string): Promise<RawLspClient> {
  const raw = await RawLspClient.start(loadShippedEntry('pyright'), ctx.root, path.join(ctx.cacheDir, 'raw-py'));
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.py')) files.push(p);
    }
  };
  walk(path.join(ctx.root, dir));
  await raw.waitReady(async () => Promise.all(files.map((f) => raw.open(f))));
  return raw;
}

/** Defect 3: callers and rename sites in email/mime, which pyrightconfig.json leaves out of the project, from a cold start. */
export async function pyOutsideProject(ctx: TruthContext): Promise<void> {
  if (ctx.lang !== 'py') return;
  const targets = ['email/message.py::Message.set_payload', 'email/message.py::Message.add_header', 'email/message.py::Message.set_param'];
  const raw = await allOpenPyright(ctx, 'email');
  const cold = await ctx.cold();
  const callers: string[][] = [[], []];
  const renameSites: string[][] = [[], []];
  try {
    for (const t of targets) {
      const def = await cold.run('find_definition', { symbol_id: `${t}#method` });
      if (!def.ok) continue;
      const d = def.result.definitions[0];
      const uri = pathToFileURL(path.join(ctx.root, d.file)).href;
      const position = { line: d.line - 1, character: d.column - 1 };
      const [item] = (await raw.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position })).result ?? [];
      for (const c of item ? ((await raw.request(CallHierarchyIncomingCallsRequest.type, { item })).result ?? []) : []) {
        const from = path.relative(ctx.root, new URL(c.from.uri).pathname);
        callers[1]!.push(`${t} <- ${from}:${c.from.selectionRange.start.line + 1}`);
        // pyright's references of a method of a module shadowing a standard-library name come back
        // empty (its uses resolve to typeshed's stub), its call sites do not: they are what a rename must cover
        for (const r of c.fromRanges) renameSites[1]!.push(`${from}:${r.start.line + 1}`);
      }
      const mine = await cold.run('query_relationships', { query_type: 'calls-me', target: `${t}#method`, max_depth: 1, max_results: 1000 });
      if (mine.ok)
        for (const r of mine.result.results as Result[])
          callers[0]!.push(`${t} <- ${r.file}:${(await (await cold.gateway.workspaceFor(undefined)).catalog.byId(r.from_symbol_id))?.selection_line}`);
      const rn = await cold.run('rename_symbol', { symbol_id: `${t}#method`, new_name: `${t.split('.').pop()}_renamed` });
      if (rn.ok) for (const n of rn.result.not_renamed as Result[]) renameSites[0]!.push(`${n.file}:${n.line}`);
    }
  } finally {
    await raw.stop();
    await cold.close();
  }
  const outside = (l: string[]) => l.filter((x) => x.includes('email/mime/'));
  ctx.add({
    analysis: 'calls-me, cold (callers in email/mime)',
    defect: '3 outside the project',
    truth: 'raw pyright with every file open',
    agreement: compareSets(outside(callers[0]!), outside(callers[1]!)).text,
    partial: '-',
    failures: '-',
  });
  const listed = new Set(outside(renameSites[0]!));
  const sites = new Set(outside(renameSites[1]!));
  const covered = [...sites].filter((x) => listed.has(x)).length;
  ctx.add({
    analysis: 'rename_symbol not_renamed (email/mime)',
    defect: '3 outside the project',
    truth: 'raw pyright call sites, every file open',
    agreement: `call sites in email/mime listed in not_renamed: ${share(covered, sites.size)}; ${listed.size - covered} other occurrences listed (non-call uses, comments)`,
    partial: '-',
    failures: '-',
  });
}

/** PHP: find_references against a raw intelephense. */
export async function phpReferences(ctx: TruthContext): Promise<void> {
  if (ctx.lang !== 'php') return;
  const names = ['studly', 'snake', 'camel', 'after', 'before', 'contains', 'startsWith', 'slug'];
  const file = path.join(ctx.root, 'Illuminate/Support/Str.php');
  const raw = await RawLspClient.start(loadShippedEntry('intelephense'), ctx.root, path.join(ctx.cacheDir, 'raw-php'));
  const mine: string[] = [];
  const truth: string[] = [];
  try {
    await raw.waitReady(async () => raw.open(file));
    for (const n of names) {
      const o = await ctx.run('find_references', { symbol_id: `Illuminate/Support/Str.php::Str.${n}#method`, include_declaration: false, max_results: 5000 });
      if (!o.ok) continue;
      for (const r of o.result.references as Result[]) mine.push(`${n} ${r.file}:${r.line}`);
      const d = (await ctx.run('find_definition', { symbol_id: `Illuminate/Support/Str.php::Str.${n}#method` })) as { ok: true; result: Result };
      const def = d.result?.definitions?.[0];
      if (!def) continue;
      const refs = ((
        await raw.request(ReferencesRequest.type, {
          textDocument: { uri: pathToFileURL(file).href },
          position: { line: def.line - 1, character: def.column - 1 },
          context: { includeDeclaration: false },
        })
      ).result ?? []) as Location[];
      for (const r of refs) truth.push(`${n} ${path.relative(ctx.root, new URL(r.uri).pathname)}:${r.range.start.line + 1}`);
    }
  } finally {
    await raw.stop();
  }
  ctx.add({
    analysis: `find_references (${names.length} Str methods)`,
    defect: 'navigation baseline',
    truth: 'raw intelephense references',
    agreement: compareSets(mine, truth).text,
    partial: '-',
    failures: '-',
  });
}
