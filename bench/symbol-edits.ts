/**
 * Symbol edits on real code (issue: edit by symbol, "on real code of your choice"): on copies, in a
 * temp dir, of code that is not lspgate's (bench/symbol-edit-langs.ts), N symbols per language
 * (functions and methods picked evenly from the catalog's outline) and N edits of each kind through
 * the in-process gateway, each a preview (apply: false) and then an apply against the preview's hash:
 *   replace_symbol_body  the declaration from get_symbol as given, the same re-indented from column 0,
 *                        or re-indented with a comment line added after its header (same meaning);
 *   insert_after_symbol  a new small function (a method inside a class);
 *   insert_before_symbol likewise;
 *   delete_symbol        without force, on declarations picked evenly until N are deleted: refusals
 *                        (references remain, errors introduced) are counted; every 5th delete undone.
 * Checked: (a) the compile check (tsc / go build + go vet / py_compile) after each kind has no more
 * errors than before it; (b) every byte outside the reported lines is the old one, the applied diff is
 * the previewed one, and a declaration replaced by its own text leaves the file as it was; (c) refusals
 * by code, with an example each. Prints the table; exit 1 when a check fails.
 * Then the breaking cases of bench/symbol-edit-breaking.ts, judged by the compiler (--breaking N a kind;
 * --breaking-only skips the table above).
 *   npm run build && node dist/bench/symbol-edits.js [--per-kind 50] [--lang typescript,go,python] [--breaking 3] [--breaking-only]
 *     [--cases=param,undefined,arity,return]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { LspgateError } from '../src/errors/errors.js';
import { Gateway } from '../src/gateway/gateway.js';
import { median } from './stats.js';
import { BREAK_HEAD, type BreakRow, fmtBreakRow, runBreaking } from './symbol-edit-breaking.js';
import { type BenchLang, LANGS } from './symbol-edit-langs.js';

type Kind = 'replace_symbol_body' | 'insert_after_symbol' | 'insert_before_symbol' | 'delete_symbol';
const KINDS: Kind[] = ['replace_symbol_body', 'insert_after_symbol', 'insert_before_symbol', 'delete_symbol'];

interface Row {
  lang: string;
  kind: Kind;
  attempted: number;
  applied: number;
  refused: Map<string, { count: number; example: string }>;
  compile: string;
  outsideOk: number;
  outsideBad: string[];
  identityOk: number;
  identityBad: string[];
  undone: number;
  previewMs: number[];
  applyMs: number[];
}

interface Sym {
  id: string;
  kind: string;
  parentKind?: string;
}

type Json = Record<string, unknown> & { _meta?: unknown };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

/** Every function/method of the files, in file order, with its parent's kind. */
async function collect(g: Gateway, lang: BenchLang, files: string[]): Promise<Sym[]> {
  const out: Sym[] = [];
  interface Node {
    kind: string;
    symbol_id?: string;
    children?: Node[];
  }
  const walk = (nodes: Node[], parentKind?: string) => {
    for (const n of nodes) {
      if (n.symbol_id && lang.kinds.has(n.kind) && (n.kind !== 'constant' || parentKind === undefined))
        out.push({ id: n.symbol_id, kind: n.kind, ...(parentKind ? { parentKind } : {}) });
      if (n.children) walk(n.children, n.kind);
    }
  };
  for (const file of files) {
    const r = (await g.run('get_file_outline', { file, detail: 'full', output_format: 'json' })).result as unknown as { symbols: Node[] };
    walk(r.symbols);
  }
  return out;
}

function evenly<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/** The reported lines [line, end_line] hold every changed byte: the same rule as the tests' outsideUnchanged. */
function outsideIdentical(kind: Kind, before: string, after: string, r: { line: number; end_line: number }): boolean {
  const b = Buffer.from(before);
  const a = Buffer.from(after);
  const starts = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 0x0a) starts.push(i + 1);
  const prefix = b.subarray(0, starts[r.line - 1] ?? b.length);
  const suffixFrom = kind.startsWith('insert')
    ? (starts[r.line - 1] ?? b.length)
    : kind === 'delete_symbol'
      ? (starts[r.end_line] ?? b.length)
      : (starts[r.end_line] ?? b.length + 1) - 1;
  const suffix = b.subarray(Math.min(suffixFrom, b.length));
  return a.length >= prefix.length + suffix.length && a.subarray(0, prefix.length).equals(prefix) && a.subarray(a.length - suffix.length).equals(suffix);
}

/** The declaration's text as get_symbol gives it, its lines after the first moved to column 0, or that with a comment after its header. */
function replacementBody(lang: BenchLang, source: string, indent: string, variant: number): { body: string; identity: boolean } {
  if (variant === 0) return { body: source, identity: true };
  const lines = source.split('\n').map((l, i) => (i > 0 && l.startsWith(indent) ? l.slice(indent.length) : l));
  if (variant === 1) return { body: lines.join('\n'), identity: true };
  const at = lines.findIndex((l) => lang.opener.test(l.replace(/\s*(\/\/|#).*$/, '')));
  const next = lines.slice(at + 1).find((l) => l.trim());
  if (at < 0 || next === undefined) return { body: lines.join('\n'), identity: true };
  const lead = /^\s*/.exec(next)![0];
  lines.splice(at + 1, 0, `${lead}${lang.comment}`);
  return { body: lines.join('\n'), identity: false };
}

function refuse(row: Row, e: unknown, label: string): void {
  const code = e instanceof LspgateError ? e.code : 'THROWN';
  const msg = e instanceof Error ? e.message : String(e);
  const slot = row.refused.get(code) ?? { count: 0, example: `${label}: ${msg.slice(0, 220)}` };
  slot.count++;
  row.refused.set(code, slot);
}

/** One edit: preview, then apply with the preview's hash; the byte checks. False when refused. */
async function edit(
  g: Gateway,
  root: string,
  row: Row,
  kind: Kind,
  args: Record<string, unknown>,
  label: string,
  identity = false,
): Promise<{ ok: boolean; file?: string; before?: string }> {
  row.attempted++;
  let preview: Json;
  const t0 = performance.now();
  try {
    preview = (await g.run(kind, { ...args, output_format: 'json' })).result as Json;
  } catch (e) {
    refuse(row, e, label);
    return { ok: false };
  }
  row.previewMs.push(performance.now() - t0);
  const file = preview.file as string;
  const abs = path.join(root, file);
  const before = fs.readFileSync(abs, 'utf8');
  let r: Json;
  const t1 = performance.now();
  try {
    r = (await g.run(kind, { ...args, apply: true, expected_hash: preview.edit_hash, output_format: 'json' })).result as Json;
  } catch (e) {
    refuse(row, e, label);
    return { ok: false };
  }
  row.applyMs.push(performance.now() - t1);
  row.applied++;
  const after = fs.readFileSync(abs, 'utf8');
  // a replacement by the declaration's own text writes nothing: applied false, no new_hash, the file as it was
  const unchanged = r.applied === false && after === before;
  const sameDiff = r.diff === preview.diff && (unchanged || r.new_hash === sha(after)) && preview.content_hash === sha(before);
  if (sameDiff && outsideIdentical(kind, before, after, r as unknown as { line: number; end_line: number })) row.outsideOk++;
  else row.outsideBad.push(`${label} (${file} lines ${String(r.line)}-${String(r.end_line)}${sameDiff ? '' : ', applied diff/hash differs from the preview'})`);
  if (identity) {
    if (after === before) row.identityOk++;
    else
      row.identityBad.push(
        `${label}: ${String(r.diff)
          .split('\n')
          .filter((l) => /^[-+][^-+]/.test(l))
          .slice(0, 4)
          .join(' | ')
          .slice(0, 300)}`,
      );
  }
  return { ok: true, file, before };
}

function newRow(lang: string, kind: Kind): Row {
  return {
    lang,
    kind,
    attempted: 0,
    applied: 0,
    refused: new Map(),
    compile: '',
    outsideOk: 0,
    outsideBad: [],
    identityOk: 0,
    identityBad: [],
    undone: 0,
    previewMs: [],
    applyMs: [],
  };
}

async function runKind(g: Gateway, lang: BenchLang, root: string, kind: Kind, picked: Sym[], all: Sym[], n: number): Promise<Row> {
  const row = newRow(lang.name, kind);
  for (let i = 0; i < picked.length && kind !== 'delete_symbol'; i++) {
    const s = picked[i]!;
    if (kind === 'replace_symbol_body') {
      let got: Json;
      try {
        got = (await g.run('get_symbol', { symbol_id: s.id, output_format: 'json' })).result as Json;
      } catch (e) {
        row.attempted++;
        refuse(row, e, `get_symbol ${s.id}`);
        continue;
      }
      const sym = got.symbol as { file: string; line: number };
      const lineText = fs.readFileSync(path.join(root, sym.file), 'utf8').split('\n')[sym.line - 1] ?? '';
      const { body, identity } = replacementBody(lang, got.source as string, /^\s*/.exec(lineText)![0], i % 3);
      await edit(g, root, row, kind, { symbol_id: s.id, body }, s.id, identity);
    } else {
      const name = `${kind === 'insert_after_symbol' ? 'lspgateAfter' : 'lspgateBefore'}${i}`;
      await edit(g, root, row, kind, { symbol_id: s.id, body: lang.declaration(lang.name === 'python' ? name.toLowerCase() : name, i, s.parentKind) }, s.id);
    }
  }
  if (kind === 'delete_symbol') {
    // candidates spread over the files first, then the others in file order, until N are deleted
    const first = new Set(evenly(all, n));
    const order = [...first, ...all.filter((s) => !first.has(s))];
    for (const s of order) {
      if (row.applied >= n) break;
      const res = await edit(g, root, row, kind, { symbol_id: s.id }, s.id);
      if (res.ok && row.applied % 5 === 0) {
        const u = (await g.run('undo', { output_format: 'json' })).result as Json;
        const now = fs.readFileSync(path.join(root, res.file!), 'utf8');
        if (u.operation === 'delete_symbol' && now === res.before) row.undone++;
        else row.outsideBad.push(`undo of ${s.id} did not restore the file`);
      }
    }
  }
  return row;
}

function fmtRow(r: Row): string {
  const refused = [...r.refused].map(([c, v]) => `${c} ${v.count}`).join(', ') || '0';
  const ident =
    r.kind === 'replace_symbol_body'
      ? ` (own text: ${r.identityOk}/${r.identityOk + r.identityBad.length} unchanged)`
      : r.kind === 'delete_symbol'
        ? ` (${r.undone} undone, restored)`
        : '';
  return `| ${r.lang} | ${r.kind} | ${r.attempted} | ${r.applied}${ident} | ${refused} | ${r.compile} | ${r.outsideOk}/${r.applied} | ${median(r.previewMs).toFixed(0)} | ${median(r.applyMs).toFixed(0)} |`;
}

async function runLang(lang: BenchLang, tmp: string, n: number, rows: Row[], notes: string[]): Promise<void> {
  const root = path.join(tmp, lang.name, 'code');
  const files = lang.prepare(root);
  const base = lang.compile(root, files);
  process.stderr.write(`[${lang.name}] ${files.length} files copied; compile check before: ${base.errors} error(s)\n`);
  const g = await Gateway.create({ root, cacheDir: path.join(tmp, lang.name, 'cache') });
  try {
    const all = await collect(g, lang, files);
    const picked = evenly(all, n);
    process.stderr.write(`[${lang.name}] ${all.length} functions/methods, ${picked.length} picked\n`);
    let errors = base.errors;
    for (const kind of KINDS) {
      const row = await runKind(g, lang, root, kind, picked, all, n);
      const c = lang.compile(root, files);
      row.compile = c.errors <= errors ? `yes (${errors} → ${c.errors})` : `NO (${errors} → ${c.errors})`;
      if (c.errors > errors) notes.push(`${lang.name} ${kind}: new compile errors: ${c.sample.join(' / ')}`);
      errors = c.errors;
      rows.push(row);
      process.stderr.write(`${fmtRow(row)}\n`);
      for (const [code, v] of row.refused) notes.push(`${lang.name} ${kind} refused ${code} ×${v.count}, e.g. ${v.example}`);
      for (const b of row.outsideBad.slice(0, 5)) notes.push(`${lang.name} ${kind} BYTES OUTSIDE THE RANGE CHANGED: ${b}`);
      for (const b of row.identityBad.slice(0, 5)) notes.push(`${lang.name} ${kind} OWN TEXT CHANGED THE FILE: ${b}`);
    }
  } finally {
    await g.close();
  }
}

async function main(): Promise<number> {
  const n = Number(arg('--per-kind') ?? 50);
  const only = arg('--lang')?.split(',');
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-symbol-edits-')));
  const rows: Row[] = [];
  const breaking: BreakRow[] = [];
  const notes: string[] = [];
  try {
    for (const lang of LANGS.filter((l) => !only || only.includes(l.name))) {
      const why = lang.unavailable();
      if (why) {
        notes.push(`${lang.name}: skipped: ${why}`);
        continue;
      }
      if (!process.argv.includes('--breaking-only')) await runLang(lang, tmp, n, rows, notes);
      const b = await runBreaking(lang, tmp, Number(arg('--breaking') ?? 3));
      breaking.push(...b);
      for (const r of b) {
        for (const x of [...r.falseAccepts, ...r.falseRefusals, ...r.missed, ...r.skipped].slice(0, 6)) notes.push(`${r.lang} breaking ${r.kind}: ${x}`);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const head = [
    '| language | kind | attempted | applied | refused (by code) | compile check equal (errors before → after) | bytes outside identical | median preview ms | median apply ms |',
    '|---|---|---:|---:|---|---|---:|---:|---:|',
  ];
  const load = fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').trim() : os.loadavg().join(' ');
  process.stdout.write(
    `${rows.length ? [...head, ...rows.map(fmtRow)].join('\n') + '\n\n' : ''}${[...BREAK_HEAD, ...breaking.map(fmtBreakRow)].join('\n')}\n\n${new Date().toISOString()}; load ${load}; node ${process.version}\n\n${notes.map((x) => `- ${x}`).join('\n')}\n`,
  );
  const failed =
    rows.some((r) => r.compile.startsWith('NO') || r.outsideBad.length > 0 || r.identityBad.length > 0) || breaking.some((r) => r.falseAccepts.length > 0);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`[symbol-edits] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
