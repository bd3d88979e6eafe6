#!/usr/bin/env node
// The import graph of a real TypeScript project that also holds JavaScript, against the compiler's
// own resolution. The project: khroma (a dev dependency's package in node_modules: TypeScript sources
// in src/, their compiled ES modules in dist/, JavaScript tests of dist/ and a benchmark task), copied
// into a git repository of its own with a tsconfig that includes both (allowJs). Every file's workspace
// imports from project_context's `dependencies` (one import graph over the whole workspace: one file
// whose language's query failed to compile used to fail it whole) are compared with
// `tsc --traceResolution` (importing file -> resolved workspace file). Build first (npm run build).
// Usage: node scripts/try-js-imports.mjs   Work dir: $LSPGATE_TRY_DIR (default: a temp dir).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Gateway } = await import(path.join(HERE, 'dist/src/gateway/gateway.js'));
const WORK = process.env.LSPGATE_TRY_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-try-js-'));
const ROOT = path.join(WORK, 'khroma');
const rel = (abs) => path.relative(ROOT, abs).split(path.sep).join('/');

function prepare() {
  fs.rmSync(ROOT, { recursive: true, force: true });
  fs.cpSync(path.join(HERE, 'node_modules/khroma'), ROOT, { recursive: true });
  // The package's own tsconfig extends a tool that is not installed (tsex: bundler resolution, `~/*` for
  // src/*): the same settings written out, with JavaScript in.
  const compilerOptions = {
    target: 'ES2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    baseUrl: '.',
    paths: { '~/*': ['src/*'] },
    allowJs: true,
    noEmit: true,
    skipLibCheck: true,
  };
  fs.writeFileSync(path.join(ROOT, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src', 'dist', 'test', 'tasks'] }, null, 2));
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...a], { cwd: ROOT, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'khroma');
}

/** `from -> to` for every module name tsc resolves to a file of the workspace. */
function tscEdges() {
  let text = '';
  try {
    text = execFileSync(path.join(HERE, 'node_modules/.bin/tsc'), ['-p', ROOT, '--traceResolution'], { maxBuffer: 512 * 1024 * 1024 }).toString();
  } catch (e) {
    text = e.stdout.toString(); // type errors do not change resolution
  }
  const edges = new Set();
  let from;
  for (const line of text.split('\n')) {
    const m = /^======== Resolving module '(.+)' from '(.+)'\. ========$/.exec(line);
    if (m) from = m[2];
    const r = /^======== Module name '(.+)' was successfully resolved to '(.+)'/.exec(line);
    // dist/ is build output, which the catalog leaves out: its files import nothing lspgate answers for
    if (r && from && !path.relative(ROOT, r[2]).startsWith('..') && r[2] !== from && !rel(from).startsWith('dist/')) edges.add(`${rel(from)} -> ${rel(r[2])}`);
  }
  return edges;
}

prepare();
const files = execFileSync('git', ['ls-files'], { cwd: ROOT }).toString().trim().split('\n');
const byExt = {};
for (const f of files) byExt[path.extname(f)] = (byExt[path.extname(f)] ?? 0) + 1;
console.log(`khroma copy: ${ROOT}; files by extension ${JSON.stringify(byExt)}`);
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
const gw = await Gateway.create({ root: ROOT, cacheDir });
try {
  const t0 = performance.now();
  const ctx = (await gw.run('project_context', { output_format: 'json', max_dependencies: 5000 })).result;
  const mine = new Set(Object.entries(ctx.context.dependencies ?? {}).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`)));
  const truth = tscEdges();
  const only = (a, b) => [...a].filter((x) => !b.has(x));
  const fromExt = (edges, ext) => [...edges].filter((e) => e.split(' -> ')[0].endsWith(ext)).length;
  console.log(`project_context: ${Math.round(performance.now() - t0)} ms, ${ctx.total_dependency_files} importing files`);
  for (const ext of ['.ts', '.js']) console.log(`  edges from ${ext} files: lspgate ${fromExt(mine, ext)}, tsc ${fromExt(truth, ext)}`);
  console.log(
    `  edges: lspgate ${mine.size}, tsc --traceResolution ${truth.size}; only lspgate ${only(mine, truth).length}, only tsc ${only(truth, mine).length}`,
  );
  for (const x of only(mine, truth).slice(0, 10)) console.log(`    lspgate only: ${x}`);
  for (const x of only(truth, mine).slice(0, 10)) console.log(`    tsc only: ${x}`);
} catch (e) {
  console.log(`project_context failed: ${e.code ?? ''} ${e.message}`);
  process.exitCode = 1;
} finally {
  await gw.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
