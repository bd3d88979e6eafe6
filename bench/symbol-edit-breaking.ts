/**
 * Breaking edits judged by the compiler (bench/symbol-edits.ts runs them after its own table): on a
 * fresh copy of each language's real code, N cases of each kind —
 *   param      a required parameter added to a function that >= 3 other files reference;
 *   undefined  a call of an undefined name put at the top of a body;
 *   arity      a call of a top-level function of the same file with one argument too many;
 *   return     a value of the wrong type returned where the declaration names its result type;
 * each previewed, then applied WITHOUT accept_errors (refused or written), and when refused applied
 * with accept_errors, so the compiler (bench/symbol-edit-judge.ts) judges every case; then
 * undone. Counted: false accepts (written without accept_errors, compiler rejects), false refusals
 * (refused, compiler accepts), the compiler's rejected files named in the preview's `introduced`, and
 * introduced entries the server already reported before the edit (get_diagnostics, same file and message).
 */
import fs from 'node:fs';
import path from 'node:path';

import { Gateway } from '../src/gateway/gateway.js';
import { judge } from './symbol-edit-judge.js';
import type { BenchLang } from './symbol-edit-langs.js';

type Json = Record<string, unknown>;
type Case = 'param' | 'undefined' | 'arity' | 'return';
const CASES: Case[] = ['param', 'undefined', 'arity', 'return'];

export interface BreakRow {
  lang: string;
  kind: Case;
  cases: number;
  refused: number;
  falseAccepts: string[];
  falseRefusals: string[];
  rejected: number;
  named: number;
  preexisting: number;
  skipped: string[];
  /** Files the compiler rejected that the preview did not name, with the preview's unchecked files. */
  missed: string[];
}

/** Files with an error message the baseline does not have (as many times). */
function rejectedFiles(base: Map<string, string[]>, now: Map<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const [file, msgs] of now) {
    const left = [...(base.get(file) ?? [])];
    for (const m of msgs) {
      const i = left.indexOf(m);
      if (i >= 0) left.splice(i, 1);
      else out.add(file);
    }
  }
  return out;
}

const EXTRA: Record<string, string> = { typescript: 'lspgateExtra: number', go: 'lspgateExtra int', python: 'lspgate_extra', php: 'int $lspgateExtra' };
const UNDEFINED: Record<string, string> = {
  typescript: 'lspgateUndefinedName();',
  go: 'lspgateUndefinedName()',
  python: 'lspgate_undefined_name()',
  php: 'lspgate_undefined_name();',
};
const WRONG_RETURN: Record<string, string> = {
  typescript: 'return Symbol("lspgate");',
  go: 'return struct{ lspgate int }{}',
  python: 'return object()',
  php: 'return new \\stdClass();',
};
const RESULT_TYPE: Record<string, RegExp> = {
  typescript: /\)\s*:\s*(number|string|boolean)\s*\{\s*$/m,
  go: /\)\s*(int|string|bool|error|float64|\[\]byte)\s*\{\s*$/m,
  python: /\)\s*->\s*(int|str|bool|float)\s*:\s*$/m,
  php: /\)\s*:\s*(int|string|bool|float|array)\s*(\{\s*)?$/m,
};
const ARG: Record<string, string> = { typescript: '0 as any', go: 'nil', python: 'None', php: 'null' };

/** The source with a required parameter first in the parameter list (after Python's self/cls). */
function addParam(lang: string, name: string, source: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*(<[^>]*>)?\\s*\\(`).exec(source);
  if (!m) return undefined;
  let at = m.index + m[0].length;
  const self = lang === 'python' ? /^\s*(self|cls)\b\s*,?\s*/.exec(source.slice(at)) : null;
  if (self) at += self[0].length;
  const closes = /^\s*\)/.test(source.slice(at));
  const sep = self && !/,\s*$/.test(self[0]) ? ', ' : '';
  return `${source.slice(0, at)}${sep}${EXTRA[lang]}${closes ? '' : ', '}${source.slice(at)}`;
}

/** The source with `stmt` as the first line of its body (after the header's opening line). */
function prepend(lang: BenchLang, source: string, stmt: string): string | undefined {
  const lines = source.split('\n');
  const at = lines.findIndex((l) => lang.opener.test(l.replace(/\s*(\/\/|#).*$/, '')));
  const next = lines.slice(at + 1).find((l) => l.trim());
  if (at < 0 || next === undefined) return undefined;
  lines.splice(at + 1, 0, `${/^\s*/.exec(next)![0]}${stmt}`);
  return lines.join('\n');
}

/** A top-level function's parameter count when plain (no defaults, rest, optional or variadic ones). */
function plainArity(source: string, name: string): number | undefined {
  const m = new RegExp(`\\b${name}\\s*\\(([^()]*)\\)`).exec(source);
  if (!m || /[=?*.]|\.\.\./.test(m[1]!)) return undefined;
  return m[1]!.trim() ? m[1]!.split(',').length : 0;
}

interface Fn {
  id: string;
  name: string;
  file: string;
  kind: string;
  top: boolean;
}

async function functions(g: Gateway, files: string[]): Promise<Fn[]> {
  const out: Fn[] = [];
  interface Node {
    kind: string;
    name: string;
    symbol_id?: string;
    children?: Node[];
  }
  for (const file of files) {
    const r = (await g.run('get_file_outline', { file, detail: 'full', output_format: 'json' })).result as unknown as { symbols: Node[] };
    const walk = (nodes: Node[], top: boolean) => {
      for (const n of nodes) {
        if (n.symbol_id && (n.kind === 'function' || n.kind === 'method')) out.push({ id: n.symbol_id, name: n.name, file, kind: n.kind, top });
        if (n.children && n.kind !== 'function' && n.kind !== 'method') walk(n.children, false);
      }
    };
    walk(r.symbols, true);
  }
  return out;
}

async function source(g: Gateway, id: string): Promise<string> {
  return ((await g.run('get_symbol', { symbol_id: id, output_format: 'json' })).result as Json).source as string;
}

/** Up to `n` (symbol id, new body) pairs of a case kind. */
async function picks(g: Gateway, root: string, lang: BenchLang, fns: Fn[], kind: Case, n: number): Promise<{ id: string; body: string }[]> {
  const out: { id: string; body: string }[] = [];
  // a name other files never spell cannot have callers there: no reference search for it
  const texts = new Map([...new Set(fns.map((f) => f.file))].map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
  const spelledIn = (name: string, own: string) => [...texts].filter(([f, t]) => f !== own && new RegExp(`\\b${name}\\s*\\(`).test(t)).length;
  const step = Math.max(1, Math.floor(fns.length / (n * 8)));
  for (let i = 0; i < fns.length && out.length < n; i += kind === 'param' ? 1 : step) {
    const f = fns[i]!;
    if (out.some((o) => o.id.split('::')[0] === f.file) && kind !== 'param') continue;
    const src = await source(g, f.id).catch(() => undefined);
    if (!src) continue;
    let body: string | undefined;
    if (kind === 'param') {
      if (/^(constructor|__init__|__construct|init|main)$/.test(f.name) || src.includes('\n    @overload') || spelledIn(f.name, f.file) < 3) continue;
      const refs = (
        await g.run('find_references', { symbol_id: f.id, include_declaration: false, max_results: 500, output_format: 'json' }).catch(() => undefined)
      )?.result as { references?: { file: string }[] } | undefined;
      const others = new Set((refs?.references ?? []).map((r) => r.file).filter((x) => x !== f.file));
      if (others.size >= 3) body = addParam(lang.name, f.name, src);
    } else if (kind === 'undefined') body = prepend(lang, src, UNDEFINED[lang.name]!);
    else if (kind === 'return')
      body = RESULT_TYPE[lang.name]!.test(lang.name === 'python' ? src.split('\n').slice(0, 3).join('\n') : src.slice(0, src.indexOf('{') + 1))
        ? prepend(lang, src, WRONG_RETURN[lang.name]!)
        : undefined;
    else {
      const callee = fns.find((c) => c.top && c.kind === 'function' && c.file === f.file && c.id !== f.id);
      const csrc = callee && (await source(g, callee.id).catch(() => undefined));
      const arity = csrc ? plainArity(csrc, callee!.name) : undefined;
      if (arity !== undefined)
        body = prepend(
          lang,
          src,
          `${callee!.name}(${Array(arity + 1)
            .fill(ARG[lang.name])
            .join(', ')})${lang.name === 'typescript' ? ';' : ''}`,
        );
    }
    if (body && body !== src) out.push({ id: f.id, body });
  }
  return out;
}

async function oneCase(
  g: Gateway,
  root: string,
  lang: string,
  files: string[],
  base: Map<string, string[]>,
  row: BreakRow,
  id: string,
  body: string,
): Promise<void> {
  let preview: Json;
  try {
    preview = (await g.run('replace_symbol_body', { symbol_id: id, body, output_format: 'json' })).result as Json;
  } catch (e) {
    row.skipped.push(`${id}: preview ${(e as Error).message.slice(0, 160)}`);
    return;
  }
  row.cases++;
  const file = preview.file as string;
  const before = fs.readFileSync(path.join(root, file), 'utf8');
  const introduced = (preview.introduced as { file?: string; line: number; message: string; severity: string }[]).filter((d) => d.severity === 'error');
  const named = new Set(introduced.map((d) => d.file ?? file));
  // introduced entries the server reported before the edit: pre-existing, not introduced (same file and
  // message; in a referencing file, which the edit does not change, on the same line too)
  for (const f of named) {
    const diag = (await g.run('get_diagnostics', { file: f, severity: 'error', wait_ms: 300_000, output_format: 'json' }).catch(() => undefined))?.result as
      { files?: { diagnostics: { line: number; message: string }[] }[] } | undefined;
    const had = (diag?.files ?? []).flatMap((x) => x.diagnostics);
    row.preexisting += introduced.filter((d) => (d.file ?? file) === f && had.some((h) => h.message === d.message && (f === file || h.line === d.line))).length;
  }
  let refused = false;
  try {
    await g.run('replace_symbol_body', { symbol_id: id, body, apply: true, expected_hash: preview.edit_hash, output_format: 'json' });
  } catch (e) {
    // only a refusal of the check counts: another error is the bench's (a stale hash) and is said
    const code = (e as { code?: string }).code;
    if (code !== 'INVALID_INPUT') {
      row.skipped.push(`${id}: apply ${code}: ${(e as Error).message.slice(0, 160)}`);
      row.cases--;
      return;
    }
    refused = true;
    row.refused++;
    // written anyway, so that the compiler judges the refusal (undone below)
    await g.run('replace_symbol_body', { symbol_id: id, body, apply: true, accept_errors: true, output_format: 'json' }).catch((e: unknown) => {
      row.skipped.push(`${id}: apply with accept_errors: ${(e as Error).message.slice(0, 160)}`);
    });
  }
  const rejected = rejectedFiles(base, (await judge(lang, root, g, files))!);
  if (!refused && rejected.size) row.falseAccepts.push(`${id}: compiler rejects ${[...rejected].join(', ')}`);
  if (refused && !rejected.size) row.falseRefusals.push(`${id}: refused, compiler accepts`);
  row.rejected += rejected.size;
  row.named += [...rejected].filter((f) => named.has(f)).length;
  const missed = [...rejected].filter((f) => !named.has(f));
  if (missed.length) row.missed.push(`${id}: not named ${missed.join(', ')}; unchecked ${JSON.stringify(preview.unchecked ?? [])}`);
  await g.run('undo', { output_format: 'json' }).catch(() => undefined);
  if (fs.readFileSync(path.join(root, file), 'utf8') !== before) {
    fs.writeFileSync(path.join(root, file), before);
    await g.run('index_folder', { output_format: 'json' }).catch(() => undefined);
  }
}

export async function runBreaking(lang: BenchLang, tmp: string, n: number): Promise<BreakRow[]> {
  const root = path.join(tmp, lang.name, 'breaking');
  const files = lang.breakingPrepare ? lang.breakingPrepare(root) : lang.prepare(root);
  const g = await Gateway.create({ root, cacheDir: path.join(tmp, lang.name, 'cache-breaking') });
  const rows: BreakRow[] = [];
  try {
    const base = await judge(lang.name, root, g, files);
    if (!base) return [];
    process.stderr.write(`[${lang.name} breaking] compiler errors before: ${[...base.values()].flat().length}\n`);
    const fns = await functions(g, files);
    const only = process.argv
      .find((a) => a.startsWith('--cases='))
      ?.slice('--cases='.length)
      .split(',');
    for (const kind of CASES.filter((k) => !only || only.includes(k))) {
      const row: BreakRow = {
        lang: lang.name,
        kind,
        cases: 0,
        refused: 0,
        falseAccepts: [],
        falseRefusals: [],
        rejected: 0,
        named: 0,
        preexisting: 0,
        skipped: [],
        missed: [],
      };
      for (const p of await picks(g, root, lang, fns, kind, n)) await oneCase(g, root, lang.name, files, base, row, p.id, p.body);
      rows.push(row);
      process.stderr.write(`${fmtBreakRow(row)}\n`);
    }
  } finally {
    await g.close();
  }
  return rows;
}

export const BREAK_HEAD = [
  '| language | breaking case | cases | refused | false accepts | false refusals | compiler-rejected files named in the preview | pre-existing counted as introduced |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
];

export function fmtBreakRow(r: BreakRow): string {
  const pct = r.rejected ? `${r.named}/${r.rejected} (${Math.round((100 * r.named) / r.rejected)}%)` : 'n/a';
  return `| ${r.lang} | ${r.kind} | ${r.cases} | ${r.refused} | ${r.falseAccepts.length} | ${r.falseRefusals.length} | ${pct} | ${r.preexisting} |`;
}
