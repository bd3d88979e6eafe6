/**
 * The independent truth `npm run truth` compares lspgate with: the compilers' own tools, run on the
 * corpus, never lspgate's code.
 *   ts:  `tsc --noEmit --traceResolution` (module resolution of every import, and the errors);
 *   go:  bench/truth/go-oracle (go list, go/parser, go/types: imports, build-excluded files,
 *        static callers, uses);
 *   py:  bench/truth/py-oracle.py (ast: imports by lspgate's rule, lines of code, cyclomatic
 *        complexity, overrides of workspace base methods);
 *   php: `use` statements and `require __DIR__ . '…'` resolved by the declarations each file holds;
 *   and a raw language server of its own (bench/raw-client.ts) for call trees.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { CallHierarchyIncomingCallsRequest, type CallHierarchyItem, CallHierarchyPrepareRequest, type Position } from 'vscode-languageserver-protocol';

import { packageRoot, type RawLspClient } from '../raw-client.js';
import { type Corpus, GO_BIN, goEnv } from './corpora.js';

const relTo = (root: string, abs: string) => path.relative(root, abs).split(path.sep).join('/');

export interface TsTruth {
  /** importing file → workspace files its imports resolve to. */
  imports: Map<string, Set<string>>;
  /** file → `line code` of every error tsc reports. */
  errors: Map<string, string[]>;
}

export function tsTruth(root: string): TsTruth {
  let text: string;
  try {
    text = execFileSync(
      process.execPath,
      [path.join(packageRoot, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit', '--traceResolution', '--pretty', 'false'],
      { maxBuffer: 1024 * 1024 * 1024 },
    ).toString();
  } catch (e) {
    text = (e as { stdout: Buffer }).stdout.toString(); // errors do not change resolution
  }
  const imports = new Map<string, Set<string>>();
  const errors = new Map<string, string[]>();
  let from: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^======== Resolving module '(.+)' from '(.+)'\. ========$/.exec(line);
    if (m) from = m[2];
    const r = /^======== Module name '(.+)' was successfully resolved to '(.+?)'/.exec(line);
    if (r && from && r[2]!.startsWith(root + path.sep) && !r[2]!.includes(`${path.sep}node_modules${path.sep}`)) {
      const f = relTo(root, from);
      if (!imports.has(f)) imports.set(f, new Set());
      imports.get(f)!.add(relTo(root, r[2]!));
    }
    const e = /^(.+?)\((\d+),\d+\): error TS(\d+):/.exec(line);
    if (e) {
      // tsc prints paths relative to its working directory
      const f = relTo(root, path.resolve(e[1]!));
      if (!errors.has(f)) errors.set(f, []);
      errors.get(f)!.push(`${e[2]} ${e[3]}`);
    }
  }
  return { imports, errors };
}

export interface GoFunc {
  id: string;
  file: string;
  line: number;
  end_line: number;
  name: string;
  recv: string;
  exported: boolean;
  callers: string[];
  uses: number;
}

export interface GoTruth {
  files: { file: string; package: string; excluded: boolean; imports: string[] }[];
  funcs: GoFunc[];
}

export function goTruth(root: string): GoTruth {
  const out = execFileSync(GO_BIN, ['-C', path.join(packageRoot, 'bench/truth/go-oracle'), 'run', '.', root], {
    env: goEnv(),
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
  return JSON.parse(out) as GoTruth;
}

export interface PyFunc {
  id: string;
  file: string;
  line: number;
  start: number;
  end_line: number;
  loc: number;
  cyclomatic: number;
  method: boolean;
}

export interface PyTruth {
  files: Record<string, { imports: string[] }>;
  funcs: PyFunc[];
  overrides: { method: string; base: string }[];
}

export function pyTruth(root: string): PyTruth {
  return JSON.parse(
    execFileSync('python3', [path.join(packageRoot, 'bench/truth/py-oracle.py'), root], { maxBuffer: 256 * 1024 * 1024 }).toString(),
  ) as PyTruth;
}

/**
 * PHP `use A\B\C;` lines (and `require __DIR__ . '/x.php'`) resolved through the declarations of the tree itself: every file's
 * `namespace X;` and `class|interface|trait|enum Name` give the fully qualified names it declares
 * (Debian lays Illuminate out by package, not by PSR-4: Illuminate\Support\Traits\EnumeratesValues
 * is in Collections/Traits/).
 */
export function phpTruth(root: string): Map<string, Set<string>> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.name.endsWith('.php')) files.push(abs);
    }
  };
  walk(path.join(root, 'Illuminate'));
  const declared = new Map<string, string>();
  const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
  for (const [abs, text] of texts) {
    const ns = /^namespace\s+([\w\\]+)\s*;/m.exec(text)?.[1];
    for (const m of text.matchAll(/^(?:(?:abstract|final|readonly)\s+)*(?:class|interface|trait|enum)\s+(\w+)/gm))
      declared.set(ns ? `${ns}\\${m[1]}` : m[1]!, relTo(root, abs));
  }
  const out = new Map<string, Set<string>>();
  for (const [abs, text] of texts) {
    const f = relTo(root, abs);
    const set = new Set<string>();
    for (const m of text.matchAll(/^use\s+([\w\\]+)(?:\s+as\s+\w+)?\s*;/gm)) {
      const target = declared.get(m[1]!.replace(/^\\/, ''));
      if (target && target !== f) set.add(target);
    }
    // require/include of a path next to the file (PHP's __DIR__)
    for (const m of text.matchAll(/\b(?:require|include)(?:_once)?\s*\(?\s*__DIR__\s*\.\s*'([^']+)'/g)) {
      const target = relTo(root, path.join(path.dirname(abs), m[1]!));
      if (fs.existsSync(path.join(root, target)) && target !== f) set.add(target);
    }
    if (set.size) out.set(f, set);
  }
  return out;
}

export function truthFor(corpus: Corpus): { ts?: TsTruth; go?: GoTruth; py?: PyTruth; php?: Map<string, Set<string>> } {
  if (corpus.lang === 'ts') return { ts: tsTruth(corpus.root) };
  if (corpus.lang === 'go') return { go: goTruth(corpus.root) };
  if (corpus.lang === 'py') return { py: pyTruth(corpus.root) };
  return { php: phpTruth(corpus.root) };
}

/**
 * The raw server's incoming calls followed breadth first to `depth`, each item asked once, edges
 * `caller@file -> callee@file` (short names) with the depth they were first met at (the minimal one).
 */
export async function rawCallsMe(client: RawLspClient, root: string, abs: string, position: Position, depth: number): Promise<Map<string, number>> {
  const uri = pathToFileURL(abs).href;
  await client.open(abs);
  const key = (i: CallHierarchyItem) => `${i.name.split('.').pop()}@${relTo(root, fileURLToPath(i.uri))}`;
  const [start] = (await client.request(CallHierarchyPrepareRequest.type, { textDocument: { uri }, position })).result ?? [];
  const edges = new Map<string, number>();
  if (!start) return edges;
  const seen = new Set([key(start)]);
  let level: CallHierarchyItem[] = [start];
  for (let d = 1; d <= depth && level.length; d++) {
    const next: CallHierarchyItem[] = [];
    for (const item of level) {
      for (const c of (await client.request(CallHierarchyIncomingCallsRequest.type, { item })).result ?? []) {
        if (!fileURLToPath(c.from.uri).startsWith(root + path.sep)) continue;
        const e = `${key(c.from)} -> ${key(item)}`;
        if (!edges.has(e)) edges.set(e, d);
        if (!seen.has(key(c.from))) {
          seen.add(key(c.from));
          next.push(c.from);
        }
      }
    }
    level = next;
  }
  return edges;
}
