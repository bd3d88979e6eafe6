#!/usr/bin/env node
// Acceptance of the relationship queries on real code that is not part of lspgate, as a new user would try it:
//   ts: zod's v4 sources (shipped in node_modules/zod/src; tests and locales left out);
//   go: GOROOT's go/token, go/scanner, go/ast, go/parser, go/printer, go/format (and what they
//       import of go/...) copied into a module of their own, imports rewritten to the module path;
//   py: CPython's json and email packages from the local standard library.
// Each copy is a git repository of its own.
//   1. calls-me of a widely used function (depth 3) through query_relationships, against the raw
//      server's incoming calls followed to the same depth (same cycle rule).
//   2. imports-me of a module against the compiler's own resolution: `tsc --traceResolution` (ts),
//      `go list -json` + go/parser's ImportsOnly per file (go), ast-parsed imports resolved to the
//      package's files (py).
//   3. changed_symbols after editing known functions lists exactly those functions.
//   4. imports-me again after that edit (the graph re-resolves the changed file only).
// Prints each comparison with its counts and timings. Build first (npm run build).
// Usage: node scripts/try-relationships.mjs [--lang ts|go|py] [function] [module]   Work dir: $LSPGATE_TRY_DIR.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CallHierarchyIncomingCallsRequest, CallHierarchyPrepareRequest, DocumentSymbolRequest } from 'vscode-languageserver-protocol';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Gateway } = await import(path.join(HERE, 'dist/src/gateway/gateway.js'));
const { liveResponseCaches } = await import(path.join(HERE, 'dist/src/cache/response-cache.js'));
const { RawLspClient, loadShippedEntry } = await import(path.join(HERE, 'dist/bench/raw-client.js'));
const argv = process.argv.slice(2);
const langAt = argv.indexOf('--lang');
const LANG = langAt >= 0 ? argv.splice(langAt, 2)[1] : 'ts';
const WORK = process.env.LSPGATE_TRY_DIR ?? path.join(os.tmpdir(), `lspgate-try-rel-${LANG}`);
const { NEWEST_GO, NEWEST_GOROOT_SRC, newestGoLine } = await import(path.join(HERE, 'dist/bench/go-toolchain.js'));
const GOROOT_SRC = process.env.GOROOT_SRC ?? NEWEST_GOROOT_SRC;
const GO = NEWEST_GO;
const GO_PKGS = ['go/token', 'go/scanner', 'go/ast', 'go/build/constraint', 'go/internal/typeparams', 'go/parser', 'go/doc/comment', 'go/printer', 'go/format'];
const GO_MODULE = 'lspgate.test/gostd';
const PYLIB = process.env.PYLIB ?? execFileSync('python3', ['-c', 'import json,os;print(os.path.dirname(os.path.dirname(json.__file__)))']).toString().trim();

const LANGS = {
  ts: {
    dir: 'zod',
    fn: 'core/util.ts::normalizeParams#function',
    module: 'core/util.ts',
    edit: 'core/util.ts',
    comment: '//',
    prepare: prepareTs,
    importers: traceImporters,
  },
  go: {
    dir: 'gostd',
    fn: 'go/token/position.go::Pos.IsValid#method',
    module: 'go/token/token.go',
    edit: 'go/token/token.go',
    comment: '//',
    prepare: prepareGo,
    importers: goImporters,
  },
  py: {
    dir: 'pystd',
    fn: 'email/utils.py::unquote#function',
    module: 'email/errors.py',
    edit: 'email/utils.py',
    comment: '#',
    prepare: preparePy,
    importers: pyImporters,
  },
};
const L = LANGS[LANG];
if (!L) throw new Error(`--lang must be one of ${Object.keys(LANGS).join(', ')}`);
const ROOT = path.join(WORK, L.dir);
const FN = argv[0] ?? L.fn;
const MODULE = argv[1] ?? L.module;

function prepare() {
  fs.rmSync(WORK, { recursive: true, force: true });
  L.prepare();
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...a], { cwd: ROOT, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', `${LANG} sources`);
}

function prepareTs() {
  const src = path.join(HERE, 'node_modules/zod/src/v4');
  fs.cpSync(src, ROOT, { recursive: true, filter: (p) => !/[/\\](tests|locales)([/\\]|$)/.test(p.slice(src.length)) });
  fs.writeFileSync(
    path.join(ROOT, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { target: 'ESNext', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true, skipLibCheck: true },
        include: ['**/*.ts'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(ROOT, 'package.json'), '{ "name": "zod-v4-copy", "private": true, "type": "module" }\n');
}

function prepareGo() {
  for (const pkg of GO_PKGS) {
    const dir = path.join(ROOT, pkg);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(path.join(GOROOT_SRC, pkg))) {
      if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
      const text = fs
        .readFileSync(path.join(GOROOT_SRC, pkg, f), 'utf8')
        .replace(/"(go\/[\w/]+)"/g, (m, p) => (GO_PKGS.includes(p) ? `"${GO_MODULE}/${p}"` : m));
      fs.writeFileSync(path.join(dir, f), text);
    }
  }
  fs.writeFileSync(path.join(ROOT, 'go.mod'), `module ${GO_MODULE}\n\ngo ${newestGoLine()}\n`);
}

function preparePy() {
  for (const pkg of ['json', 'email']) fs.cpSync(path.join(PYLIB, pkg), path.join(ROOT, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
}

/** Go: packages that import the module's package (`go list -json`), then the files of those packages whose own import list names it (go/parser, ImportsOnly). */
function goImporters(target) {
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', PATH: `${path.dirname(GO)}:${process.env.PATH}` };
  const want = `${GO_MODULE}/${path.posix.dirname(target)}`;
  const text = execFileSync(GO, ['list', '-json', './...'], { cwd: ROOT, env }).toString();
  const pkgs = JSON.parse(`[${text.replace(/}\s*{/g, '},{')}]`).filter((p) => (p.Imports ?? []).includes(want));
  const prog = path.join(WORK, 'imports-only');
  fs.mkdirSync(prog, { recursive: true });
  fs.writeFileSync(path.join(prog, 'go.mod'), 'module importsonly\n\ngo 1.23\n');
  fs.writeFileSync(
    path.join(prog, 'main.go'),
    `package main

import (
\t"fmt"
\t"go/parser"
\t"go/token"
\t"os"
\t"strconv"
)

func main() {
\tfor _, f := range os.Args[2:] {
\t\tfile, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
\t\tif err != nil {
\t\t\tpanic(err)
\t\t}
\t\tfor _, imp := range file.Imports {
\t\t\tif p, _ := strconv.Unquote(imp.Path.Value); p == os.Args[1] {
\t\t\t\tfmt.Println(f)
\t\t\t}
\t\t}
\t}
}
`,
  );
  const files = pkgs.flatMap((p) => p.GoFiles.map((f) => path.join(p.Dir, f)));
  const out = execFileSync(GO, ['run', '.', want, ...files], { cwd: prog, env }).toString();
  const byPackage = pkgs.map((p) => path.relative(ROOT, p.Dir)).sort();
  console.log(`  go list: ${byPackage.length} packages import ${want}: ${byPackage.join(' ')}`);
  return out
    .split('\n')
    .filter(Boolean)
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .sort();
}

/** Python: every file's import statements (ast), relative ones resolved against its package, mapped onto the copy's files. */
function pyImporters(target) {
  const script = `
import ast, os, sys, json
root, target = sys.argv[1], sys.argv[2]
def mod_file(mod):
    base = os.path.join(root, *mod.split('.'))
    for f in (base + '.py', os.path.join(base, '__init__.py')):
        if os.path.isfile(f): return os.path.relpath(f, root)
out = set()
for d, _, fs in os.walk(root):
    for n in fs:
        if not n.endswith('.py'): continue
        path = os.path.join(d, n); rel = os.path.relpath(path, root)
        pkg = os.path.dirname(rel).replace(os.sep, '.')
        for node in ast.walk(ast.parse(open(path, encoding='utf-8').read())):
            mods = []
            if isinstance(node, ast.Import): mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = pkg.split('.') if node.level else []
                if node.level > 1: base = base[:len(base) - node.level + 1]
                mod = '.'.join([p for p in base if p] + ([node.module] if node.module else []))
                mods = ([mod] if mod else []) + [mod + '.' + a.name if mod else a.name for a in node.names]
            if any(mod_file(m) == target for m in mods) and rel != target: out.add(rel)
print(json.dumps(sorted(out)))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, ROOT, target]).toString());
}

const ms = (t0) => `${Math.round(performance.now() - t0)} ms`;
const rel = (uri) => path.relative(ROOT, fileURLToPath(uri)).split(path.sep).join('/');

/**
 * The raw server's incoming calls to `depth`, expanded like lspgate's tree (cycles on the path not
 * expanded), from a server of its own driven straight over JSON-RPC (bench/raw-client.ts), each
 * item asked once.
 */
async function rawCallsMe(client, uri, position, depth) {
  const key = (i) => `${i.uri}:${i.selectionRange.start.line}:${i.selectionRange.start.character}`;
  const [root] = (await client.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position })).result ?? [];
  const asked = new Map();
  const incoming = async (item) => {
    if (!asked.has(key(item))) asked.set(key(item), (await client.request(CallHierarchyIncomingCallsRequest.type, { item })).result ?? []);
    return asked.get(key(item));
  };
  const out = [];
  let level = [{ item: root, path: new Set([key(root)]) }];
  for (let d = 1; d <= depth && level.length; d++) {
    const next = [];
    for (const { item, path: p } of level) {
      for (const c of await incoming(item)) {
        if (!fileURLToPath(c.from.uri).startsWith(ROOT + path.sep)) continue;
        const line = Math.min(...c.fromRanges.map((r) => r.start.line)) + 1;
        out.push(`${d} ${rel(c.from.uri)}:${line}`);
        if (!p.has(key(c.from))) next.push({ item: c.from, path: new Set(p).add(key(c.from)) });
      }
    }
    level = next;
  }
  return { edges: out, requests: asked.size + 1 };
}

/** Every page of a query_relationships answer. */
async function allPages(run, input) {
  const results = [];
  let cursor;
  do {
    const page = await run('query_relationships', { ...input, max_results: 1000, ...(cursor ? { cursor } : {}) });
    results.push(...page.results);
    cursor = page._meta?.next_cursor;
  } while (cursor);
  return results;
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

/** Multiset difference, first 10 of each side shown. */
function diff(a, b) {
  const count = (l) => l.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map());
  const left = (x, y) => [...count(x)].flatMap(([k, n]) => Array(Math.max(0, n - (count(y).get(k) ?? 0))).fill(k));
  const onlyA = left(a, b);
  const onlyB = left(b, a);
  return {
    equal: onlyA.length === 0 && onlyB.length === 0,
    only_lspgate: onlyA.length,
    only_reference: onlyB.length,
    first: [...onlyA.slice(0, 10).map((x) => `lspgate: ${x}`), ...onlyB.slice(0, 10).map((x) => `reference: ${x}`)],
  };
}

prepare();
console.log(`${LANG}: ${ROOT}`);
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
const gw = await Gateway.create({ root: ROOT, cacheDir });
const run = async (op, input) => (await gw.run(op, { ...input, output_format: 'json' })).result;
try {
  let t0 = performance.now();
  await run('index_folder', { path: ROOT });
  console.log(`catalog: ${ms(t0)}`);

  // 1. calls-me
  const input = { query_type: 'calls-me', target: FN, max_depth: 3 };
  t0 = performance.now();
  const mine = await allPages(run, input);
  const tMine = ms(t0);
  for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
  t0 = performance.now();
  const again = await allPages(run, input);
  const tWarm = ms(t0);
  const def = await run('find_definition', { symbol_id: FN });
  const d = def.definitions[0];
  const abs = path.join(ROOT, d.file);
  const serverId = (await gw.context.broker.sessionFor(abs, ROOT)).serverId;
  const raw = await RawLspClient.start(loadShippedEntry(serverId), ROOT, path.join(cacheDir, 'raw'));
  let rawCalls;
  let tRaw;
  try {
    await raw.waitReady(async () => {
      await raw.open(abs);
      return (await raw.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } })).result;
    });
    await rawCallsMe(raw, pathToFileURL(abs).href, { line: d.line - 1, character: d.column - 1 }, 3); // cold
    t0 = performance.now();
    rawCalls = await rawCallsMe(raw, pathToFileURL(abs).href, { line: d.line - 1, character: d.column - 1 }, 3);
    tRaw = ms(t0);
  } finally {
    await raw.stop();
  }
  const lsp = mine.map((r) => `${r.depth} ${r.file}:${r.line}`);
  console.log(
    `calls-me ${FN} depth 3: lspgate ${lsp.length} edges (${tMine} first, ${tWarm} warm: server warm, answers not cached), raw ${serverId} ${rawCalls.edges.length} edges (${tRaw} warm, ${rawCalls.requests} requests);`,
    JSON.stringify(diff(lsp, rawCalls.edges)),
    again.length === mine.length ? '' : 'UNSTABLE',
  );

  // 2. imports-me
  t0 = performance.now();
  const im = await run('query_relationships', { query_type: 'imports-me', target: MODULE, max_depth: 1, max_results: 1000 });
  const tIm = ms(t0);
  const importers = [...new Set(im.results.map((r) => r.from))].sort();
  const reference = L.importers(MODULE);
  console.log(
    `imports-me ${MODULE}: lspgate ${importers.length} files (${tIm}, import graph built), compiler's resolution ${reference.length} files;`,
    JSON.stringify(diff(importers, reference)),
    im._meta?.warnings?.length ? `warnings: ${JSON.stringify(im._meta.warnings)}` : '',
  );

  // 3. changed_symbols after editing two known functions
  const outline = await run('get_file_outline', { file: L.edit, detail: 'full' });
  const fns = outline.symbols.filter((s) => s.kind === 'function' && s.location.end_line - s.location.start_line >= 2).slice(0, 2);
  const file = path.join(ROOT, L.edit);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (const f of [...fns].sort((a, b) => b.location.start_line - a.location.start_line)) {
    const indent = /^\s*/.exec(lines[f.location.start_line] ?? '')[0] || '  ';
    lines.splice(f.location.start_line, 0, `${indent}${L.comment} edited`);
  }
  fs.writeFileSync(file, lines.join('\n'));
  const ch = await run('changed_symbols', { impact_depth: 1 });
  const got = ch.symbols.map((s) => s.symbol_id).sort();
  const want = fns.map((f) => f.symbol_id).sort();
  console.log(
    `changed_symbols after editing ${want.join(', ')}: ${JSON.stringify(got)} ${JSON.stringify(got) === JSON.stringify(want) ? 'EXACT' : 'DIFFERENT'}; impacts ${ch.symbols.map((s) => `${s.name}:${s.impact.risk_level}/${s.impact.affected_files}`).join(' ')}`,
  );

  // 4. the import graph after that edit: only the changed file is scanned and resolved again
  t0 = performance.now();
  const after = await run('query_relationships', { query_type: 'imports-me', target: MODULE, max_depth: 1, max_results: 1000 });
  console.log(
    `imports-me ${MODULE} after editing ${L.edit}: ${new Set(after.results.map((r) => r.from)).size} files (${ms(t0)}, graph updated for one changed file)`,
  );
} finally {
  await gw.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
