#!/usr/bin/env node
// Acceptance of issue 11 on real code that is not part of lspgate: zod's v4 sources (shipped in
// node_modules/zod/src; tests and locales left out), copied into a git repository of its own.
//   1. calls-me of a widely used function (depth 3) through query_relationships, against the raw
//      typescript-language-server's incoming calls followed to the same depth (same cycle rule).
//   2. imports-me of a module against `tsc --traceResolution` (the compiler's own resolution).
//   3. changed_symbols after editing known functions lists exactly those functions.
//   4. imports-me again after that edit (the graph re-resolves the changed file only).
// Prints each comparison with its counts and timings. Build first (npm run build).
// Usage: node scripts/try-relationships.mjs [function] [module]   Work dir: $LSPGATE_TRY_DIR.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest } from 'vscode-languageserver-protocol';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Gateway } = await import(path.join(HERE, 'dist/src/gateway/gateway.js'));
const WORK = process.env.LSPGATE_TRY_DIR ?? path.join(os.tmpdir(), 'lspgate-try-rel');
const ROOT = path.join(WORK, 'zod');
const FN = process.argv[2] ?? 'core/util.ts::defineLazy#function';
const MODULE = process.argv[3] ?? 'core/util.ts';

function prepare() {
  fs.rmSync(WORK, { recursive: true, force: true });
  const src = path.join(HERE, 'node_modules/zod/src/v4');
  fs.cpSync(src, ROOT, { recursive: true, filter: (p) => !/[/\\](tests|locales)([/\\]|$)/.test(p.slice(src.length)) });
  fs.writeFileSync(path.join(ROOT, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ESNext', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true, skipLibCheck: true }, include: ['**/*.ts'] }, null, 2));
  fs.writeFileSync(path.join(ROOT, 'package.json'), '{ "name": "zod-v4-copy", "private": true, "type": "module" }\n');
  const git = (...a) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...a], { cwd: ROOT, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'zod v4 sources');
}

const ms = (t0) => `${Math.round(performance.now() - t0)} ms`;
const rel = (uri) => path.relative(ROOT, fileURLToPath(uri)).split(path.sep).join('/');

/** The raw server's incoming calls to `depth`, expanded like lspgate's tree (cycles on the path not expanded). */
async function rawCallsMe(session, uri, position, depth) {
  const key = (i) => `${i.uri}:${i.selectionRange.start.line}:${i.selectionRange.start.character}`;
  const [root] = (await session.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position })) ?? [];
  const out = [];
  let level = [{ item: root, path: new Set([key(root)]) }];
  for (let d = 1; d <= depth && level.length; d++) {
    const next = [];
    for (const { item, path: p } of level) {
      for (const c of (await session.request(CallHierarchyIncomingCallsRequest.type, { item })) ?? []) {
        if (!fileURLToPath(c.from.uri).startsWith(ROOT + path.sep)) continue;
        const line = Math.min(...c.fromRanges.map((r) => r.start.line)) + 1;
        out.push(`${d} ${rel(c.from.uri)}:${line}`);
        if (!p.has(key(c.from))) next.push({ item: c.from, path: new Set(p).add(key(c.from)) });
      }
    }
    level = next;
  }
  return out;
}

function traceImporters(target) {
  let text = '';
  try {
    text = execFileSync(path.join(HERE, 'node_modules/.bin/tsc'), ['-p', ROOT, '--traceResolution', '--noEmit'], { maxBuffer: 512 * 1024 * 1024 }).toString();
  } catch (e) {
    text = e.stdout.toString(); // type errors do not change resolution
  }
  const importers = new Set();
  let from;
  for (const line of text.split('\n')) {
    const m = /^======== Resolving module '(.+)' from '(.+)'\. ========$/.exec(line);
    if (m) from = m[2];
    const r = /^======== Module name '(.+)' was successfully resolved to '(.+)'/.exec(line);
    if (r && from && path.relative(ROOT, r[2]).split(path.sep).join('/') === target) importers.add(path.relative(ROOT, from).split(path.sep).join('/'));
  }
  return [...importers].sort();
}

const diff = (a, b) => ({ only_lspgate: a.filter((x) => !b.includes(x)), only_reference: b.filter((x) => !a.includes(x)) });

prepare();
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
const gw = await Gateway.create({ root: ROOT, cacheDir });
const run = async (op, input) => (await gw.run(op, { ...input, output_format: 'json' })).result;
try {
  let t0 = performance.now();
  await run('index_folder', { path: ROOT });
  console.log(`catalog: ${ms(t0)}`);

  // 1. calls-me
  t0 = performance.now();
  const mine = await run('query_relationships', { query_type: 'calls-me', target: FN, max_depth: 3, max_results: 1000 });
  const tMine = ms(t0);
  t0 = performance.now();
  const again = await run('query_relationships', { query_type: 'calls-me', target: FN, max_depth: 3, max_results: 1000 });
  const tWarm = ms(t0);
  const def = await run('find_definition', { symbol_id: FN });
  const d = def.definitions[0];
  const abs = path.join(ROOT, d.file);
  const session = await gw.context.broker.sessionFor(abs, ROOT);
  await session.syncDocument(abs);
  t0 = performance.now();
  const raw = await rawCallsMe(session, pathToFileURL(abs).href, { line: d.line - 1, character: d.column - 1 }, 3);
  const tRaw = ms(t0);
  const lsp = mine.results.map((r) => `${r.depth} ${r.file}:${r.line}`);
  console.log(`calls-me ${FN} depth 3: lspgate ${lsp.length} edges (${tMine} cold, ${tWarm} again), raw server ${raw.length} edges (${tRaw});`, JSON.stringify(diff(lsp.sort(), raw.sort())), again.total === mine.total ? '' : 'UNSTABLE');

  // 2. imports-me
  t0 = performance.now();
  const im = await run('query_relationships', { query_type: 'imports-me', target: MODULE, max_depth: 1, max_results: 1000 });
  const tIm = ms(t0);
  const importers = [...new Set(im.results.map((r) => r.from))].sort();
  const tsc = traceImporters(MODULE);
  console.log(`imports-me ${MODULE}: lspgate ${importers.length} files (${tIm}, import graph built), tsc --traceResolution ${tsc.length} files;`, JSON.stringify(diff(importers, tsc)));

  // 3. changed_symbols after editing two known functions
  const outline = await run('get_file_outline', { file: MODULE });
  const fns = outline.symbols.filter((s) => s.kind === 'function' && s.location.end_line - s.location.start_line >= 2).slice(0, 2);
  const file = path.join(ROOT, MODULE);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (const f of [...fns].sort((a, b) => b.location.start_line - a.location.start_line)) lines.splice(f.location.start_line, 0, '  // edited');
  fs.writeFileSync(file, lines.join('\n'));
  const ch = await run('changed_symbols', { impact_depth: 1 });
  const got = ch.symbols.map((s) => s.symbol_id).sort();
  const want = fns.map((f) => f.symbol_id).sort();
  console.log(`changed_symbols after editing ${want.join(', ')}: ${JSON.stringify(got)} ${JSON.stringify(got) === JSON.stringify(want) ? 'EXACT' : 'DIFFERENT'}; impacts ${ch.symbols.map((s) => `${s.name}:${s.impact.risk_level}/${s.impact.affected_files}`).join(' ')}`);

  // 4. the import graph after that edit: only the changed file is scanned and resolved again
  t0 = performance.now();
  const after = await run('query_relationships', { query_type: 'imports-me', target: MODULE, max_depth: 1, max_results: 1000 });
  console.log(`imports-me ${MODULE} after editing it: ${new Set(after.results.map((r) => r.from)).size} files (${ms(t0)}, graph updated for one changed file)`);
} finally {
  await gw.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
