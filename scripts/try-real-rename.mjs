#!/usr/bin/env node
// Acceptance of rename on real code that is not part of lspgate (copied out, never the
// originals): zod's v3 sources (node_modules/zod/src/v3), Go's encoding/json (GOROOT, in a module of
// its own) and Python's json package (the local standard library). For each: find_references of the
// symbol (with its declaration), the rename preview's edit count, apply with the preview's hashes,
// the compiler before and after (tsc without zod's tests / go build / pyright: same error count), and
// find_references of the new name. Prints one line per language.
//
// Usage: node scripts/try-real-rename.mjs [ts|go|python ...]   (after npm run build)
// Work dir: $LSPGATE_TRY_DIR (default /tmp/lspgate-try-rename).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Gateway } = await import(path.join(HERE, 'dist/src/gateway/gateway.js'));
const WORK = process.env.LSPGATE_TRY_DIR || '/tmp/lspgate-try-rename';
const { NEWEST_GO, newestGoLine } = await import(path.join(HERE, 'dist/bench/go-toolchain.js'));
const GO = process.env.GO_BIN || NEWEST_GO;
const GOROOT_SRC = path.resolve(path.dirname(GO), '..', 'src');
const PY_JSON = execFileSync('python3', ['-c', 'import json,os;print(os.path.dirname(json.__file__))']).toString().trim();

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const LANGS = {
  ts: {
    prepare(dir) {
      fs.cpSync(path.join(HERE, 'node_modules/zod/src/v3'), path.join(dir, 'src'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'ESNext', module: 'ESNext', moduleResolution: 'bundler', strict: true, skipLibCheck: true, noEmit: true },
          include: ['src'],
          exclude: ['src/tests', 'src/benchmarks'],
        }),
      );
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "zod-v3", "private": true, "type": "module" }');
    },
    target: { symbol: 'addIssueToContext' },
    newName: 'reportIssue',
    check: (dir) => {
      const r = run(process.execPath, [path.join(HERE, 'node_modules/typescript/bin/tsc'), '-p', dir], dir);
      return (r.out.match(/error TS\d+/g) ?? []).length;
    },
  },
  go: {
    prepare(dir) {
      fs.mkdirSync(path.join(dir, 'json'), { recursive: true });
      for (const f of fs.readdirSync(path.join(GOROOT_SRC, 'encoding/json')))
        if (f.endsWith('.go')) fs.copyFileSync(path.join(GOROOT_SRC, 'encoding/json', f), path.join(dir, 'json', f));
      fs.writeFileSync(path.join(dir, 'go.mod'), `module lspgate.test/stdjson\n\ngo ${newestGoLine()}\n`);
    },
    target: { symbol: 'Marshal', kind: 'function' },
    newName: 'MarshalValue',
    check: (dir) => {
      const env = { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' };
      // go build only: the package's tests import GOROOT-internal packages (internal/testenv) that do
      // not build outside GOROOT, so go vet fails before any rename too.
      const b = run(GO, ['build', './...'], dir, env);
      return b.code === 0 ? 0 : (b.out.match(/\.go:\d+:\d+:/g) ?? []).length || 1;
    },
  },
  python: {
    prepare(dir) {
      fs.cpSync(PY_JSON, path.join(dir, 'json'), { recursive: true, filter: (s) => !s.includes('__pycache__') });
    },
    target: { symbol: 'JSONDecodeError', kind: 'class' },
    newName: 'JsonDecodeError',
    check: (dir) => {
      const r = run(process.execPath, [path.join(HERE, 'node_modules/pyright/index.js'), dir], dir);
      const m = /(\d+) errors?/.exec(r.out);
      return m ? Number(m[1]) : -1;
    },
  },
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(LANGS);
const rows = [];
for (const lang of chosen) {
  const L = LANGS[lang];
  const dir = path.join(WORK, lang);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  L.prepare(dir);
  const before = L.check(dir);
  const gw = await Gateway.create({ root: dir, cacheDir: path.join(WORK, `cache-${lang}`) });
  const call = async (op, input) => (await gw.run(op, { ...input, output_format: 'json' })).result;
  try {
    const refs = await call('find_references', { ...L.target, include_declaration: true, max_results: 5000 });
    const preview = await call('rename_symbol', { ...L.target, new_name: L.newName });
    const expected = Object.fromEntries(preview.files.map((f) => [f.file, f.content_hash]));
    const applied = await call('rename_symbol', { ...L.target, new_name: L.newName, apply: true, expected_hashes: expected });
    const after = L.check(dir);
    const refsAfter = await call('find_references', { ...L.target, symbol: L.newName, include_declaration: true, max_results: 5000 });
    rows.push({
      lang,
      symbol: L.target.symbol,
      references: refs.total,
      preview_edits: preview.total_edits,
      files: preview.total_files,
      applied_edits: applied.total_edits,
      compiler_errors_before: before,
      compiler_errors_after: after,
      references_after: refsAfter.total,
    });
  } finally {
    await gw.close();
  }
}
console.table(rows);
