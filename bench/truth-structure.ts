/**
 * Type relations of lspgate's syntax+server fallback against each language's own compiler view, on
 * real code the machine already has (nothing fetched):
 *   ts: zod's v4 sources (node_modules/zod/src/v4, tests and locales left out) — truth: the
 *       TypeScript compiler API (truth-structure-ts.ts);
 *   go: GOROOT's go/token … go/format and text/template/parse copied into a module of their own —
 *       truth: go/types (truth-structure-go.ts), embedding only;
 *   py: CPython's asyncio, concurrent, email, http, json, logging, unittest and xml packages —
 *       truth: Python's ast with a resolver of its own (truth-structure-py.ts).
 * PHP is measured only where `php` is installed (token_get_all); it is not here.
 * For every type the catalog lists that the truth also declares: type_hierarchy supertypes and
 * subtypes at depth 1 (Go: the `embeds` relations), and for Python, whose server has no
 * implementation provider, find_implementations (every type below, up to 5 levels) against the
 * truth's transitive closure. Edges are `sub → base`, types keyed by `file:line` of their name,
 * bases outside the corpus by `ext:<Name>`. Agreement = matched / |truth ∪ found|.
 *
 * Usage: npm run build && node dist/bench/truth-structure.js [ts] [go] [py] [--json FILE]
 * Work dir: $LSPGATE_TRUTH_DIR (default: a directory under the OS temp dir). --json writes the rows
 * in `npm run truth`'s row shape (analysis, lang, defect, truth, agreement, partial, failures), so
 * its table can take them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Gateway } from '../src/gateway/gateway.js';
import { NEWEST_GO, NEWEST_GOROOT_SRC, newestGoLine } from './go-toolchain.js';
import { type Agreement, agreement, agreementPct, type RelationTruth } from './truth-structure-common.js';
import { goTruth } from './truth-structure-go.js';
import { pythonTruth } from './truth-structure-py.js';
import { typescriptTruth } from './truth-structure-ts.js';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = process.env.LSPGATE_TRUTH_DIR ?? path.join(os.tmpdir(), 'lspgate-truth-structure');
const GO = process.env.GO_BIN ?? NEWEST_GO;
const GOROOT_SRC = process.env.GOROOT_SRC ?? NEWEST_GOROOT_SRC;
/** The parser's internal package differs by Go version (typeparams until 1.2x, scannerhooks in 1.26): those this GOROOT has. */
const GO_PKGS = [
  'go/token',
  'go/scanner',
  'go/ast',
  'go/build/constraint',
  'go/internal/typeparams',
  'go/internal/scannerhooks',
  'go/parser',
  'go/doc/comment',
  'go/printer',
  'go/format',
  'text/template/parse',
].filter((pkg) => fs.existsSync(path.join(GOROOT_SRC, pkg)));
const GO_MODULE = 'lspgate.test/gostd';
const PY_PKGS = ['asyncio', 'concurrent', 'email', 'http', 'json', 'logging', 'unittest', 'xml'];
const TYPE_KINDS = new Set(['class', 'interface', 'trait', 'struct', 'type', 'model', 'enum']);

interface Corpus {
  lang: string;
  language: string;
  /** What the truth is, as `npm run truth`'s rows name it. */
  oracle: string;
  dir: string;
  prepare(root: string): void;
  truth(root: string): RelationTruth & { unresolved?: string[] };
  /** Only these relations count (Go: embedding; gopls's implementation answers are the server's). */
  relation?: string;
  implementations?: boolean;
}

function pythonLib(): string {
  return execFileSync('python3', ['-c', 'import json,os;print(os.path.dirname(os.path.dirname(json.__file__)))']).toString().trim();
}

const CORPORA: Corpus[] = [
  {
    lang: 'ts',
    language: 'typescript',
    oracle: 'TypeScript compiler API (heritage symbols, aliases followed)',
    dir: 'zod',
    prepare(root) {
      const src = path.join(HERE, 'node_modules/zod/src/v4');
      fs.cpSync(src, root, { recursive: true, filter: (p) => !/[/\\](tests|locales)([/\\]|$)/.test(p.slice(src.length)) });
      fs.writeFileSync(
        path.join(root, 'tsconfig.json'),
        JSON.stringify(
          {
            compilerOptions: { target: 'ESNext', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true, skipLibCheck: true },
            include: ['**/*.ts'],
          },
          null,
          2,
        ),
      );
      fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "zod-v4-copy", "private": true, "type": "module" }\n');
    },
    truth: typescriptTruth,
  },
  {
    lang: 'go',
    language: 'go',
    oracle: 'go/types (embedded fields and interfaces)',
    dir: 'gostd',
    relation: 'embeds',
    prepare(root) {
      for (const pkg of GO_PKGS) {
        const dir = path.join(root, pkg);
        fs.mkdirSync(dir, { recursive: true });
        for (const f of fs.readdirSync(path.join(GOROOT_SRC, pkg))) {
          if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
          const text = fs
            .readFileSync(path.join(GOROOT_SRC, pkg, f), 'utf8')
            .replace(/"((?:go|text\/template)\/[\w/]+)"/g, (m, p: string) => (GO_PKGS.includes(p) ? `"${GO_MODULE}/${p}"` : m));
          fs.writeFileSync(path.join(dir, f), text);
        }
      }
      fs.writeFileSync(path.join(root, 'go.mod'), `module ${GO_MODULE}\n\ngo ${newestGoLine()}\n`);
    },
    truth: (root) => goTruth(root, GO_MODULE, WORK, GO),
  },
  {
    lang: 'py',
    language: 'python',
    oracle: 'Python ast + import resolver',
    dir: 'pystd',
    implementations: true,
    prepare(root) {
      const lib = pythonLib();
      for (const pkg of PY_PKGS)
        fs.cpSync(path.join(lib, pkg), path.join(root, pkg), {
          recursive: true,
          filter: (p) => !p.includes('__pycache__') && !/[/\\]tests?([/\\]|$)/.test(p.slice(lib.length)),
        });
    },
    truth: (root) => pythonTruth(root, WORK),
  },
];

interface Node {
  name: string;
  file: string;
  line: number;
  external?: boolean;
  relation?: string;
  supertypes?: Node[];
  subtypes?: Node[];
}

const keyOfNode = (n: Node): string => (n.external ? `ext:${n.name}` : `${n.file}:${n.line}`);

function prepare(c: Corpus): string {
  const root = path.join(WORK, c.dir);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  c.prepare(root);
  const git = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...a], { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', `${c.lang} sources`);
  return root;
}

/** Transitive closure below each base, at most `depth` levels (find_implementations' MAX_DEPTH). */
function below(edges: { sub: string; base: string }[], depth: number): Map<string, Set<string>> {
  const direct = new Map<string, string[]>();
  for (const e of edges) direct.set(e.base, [...(direct.get(e.base) ?? []), e.sub]);
  const out = new Map<string, Set<string>>();
  for (const base of direct.keys()) {
    const seen = new Set<string>();
    let level = [base];
    for (let d = 0; d < depth && level.length; d++)
      level = level.flatMap((t) => direct.get(t) ?? []).filter((s) => s !== base && !seen.has(s) && (seen.add(s), true));
    out.set(base, seen);
  }
  return out;
}

interface Row {
  analysis: string;
  a: Agreement;
  failures: number;
}

async function measure(c: Corpus): Promise<{ rows: Row[]; notes: string[] }> {
  const root = prepare(c);
  const t0 = Date.now();
  const truth = c.truth(root);
  const notes = [
    `${c.lang}: truth ${truth.types.size} types, ${truth.edges.length} edges in ${Date.now() - t0} ms${truth.unresolved ? `; ${truth.unresolved.length} base(s) the truth's resolver could not place, left out` : ''}`,
  ];
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-truth-cache-'));
  const gateway = await Gateway.create({ root, cacheDir });
  try {
    const run = async (op: string, input: Record<string, unknown>) =>
      (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.build({});
    const types = (await ws.catalog.all()).filter(
      (s) => TYPE_KINDS.has(s.kind) && s.language === c.language && truth.types.has(`${s.file}:${s.selection_line}`),
    );
    notes.push(`${c.lang}: ${types.length} of the truth's ${truth.types.size} types are cataloged and asked about`);
    const asked = new Set(types.map((s) => `${s.file}:${s.selection_line}`));
    for (const [k, name] of [...truth.types].filter(([k]) => !asked.has(k)).slice(0, 5)) notes.push(`${c.lang}: not in the catalog: ${name} ${k}`);
    // a build whose nodes carry no relation (before parse-tree relations) keeps every node
    const keep = (n: Node) => !c.relation || n.relation === undefined || n.relation === c.relation;
    const found = { supertypes: new Set<string>(), subtypes: new Set<string>(), implementations: new Set<string>() };
    const failures = { supertypes: 0, subtypes: 0, implementations: 0 };
    const t1 = Date.now();
    for (const s of types) {
      const key = `${s.file}:${s.selection_line}`;
      for (const direction of ['supertypes', 'subtypes'] as const) {
        try {
          const r = await run('type_hierarchy', { symbol_id: s.symbol_id, direction, depth: 1, max_results: 1000 });
          for (const n of ((r.root as Node)[direction] ?? []).filter(keep))
            found[direction].add(direction === 'supertypes' ? `${key} → ${keyOfNode(n)}` : `${keyOfNode(n)} → ${key}`);
        } catch (e) {
          failures[direction]++;
          if (failures[direction] <= 3) notes.push(`${c.lang}: type_hierarchy ${direction} ${s.symbol_id}: ${(e as Error).message}`);
        }
      }
    }
    notes.push(`${c.lang}: ${types.length * 2} type_hierarchy calls in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    const edges = truth.edges.filter((e) => asked.has(e.sub));
    const rows: Row[] = [
      {
        analysis: 'bases (supertypes)',
        a: agreement(
          edges.map((e) => `${e.sub} → ${e.base}`),
          found.supertypes,
        ),
        failures: failures.supertypes,
      },
      {
        analysis: 'subtypes',
        a: agreement(
          edges.filter((e) => asked.has(e.base)).map((e) => `${e.sub} → ${e.base}`),
          found.subtypes,
        ),
        failures: failures.subtypes,
      },
    ];
    if (c.implementations) {
      const closure = below(
        edges.filter((e) => asked.has(e.base)),
        5,
      );
      const want: string[] = [];
      for (const [base, subs] of closure) for (const sub of subs) want.push(`${sub} ⇒ ${base}`);
      for (const s of types.filter(
        (t) => closure.has(`${t.file}:${t.selection_line}`) || [...found.subtypes].some((e) => e.endsWith(` → ${t.file}:${t.selection_line}`)),
      )) {
        const key = `${s.file}:${s.selection_line}`;
        try {
          const r = await run('find_implementations', { symbol_id: s.symbol_id });
          for (const d of r.implementations as { file: string; line: number }[]) found.implementations.add(`${d.file}:${d.line} ⇒ ${key}`);
        } catch (e) {
          failures.implementations++;
          if (failures.implementations <= 3) notes.push(`${c.lang}: find_implementations ${s.symbol_id}: ${(e as Error).message}`);
        }
      }
      rows.push({ analysis: 'implementations (transitive)', a: agreement(want, found.implementations), failures: failures.implementations });
    }
    return { rows, notes };
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** A row as `npm run truth` writes them (its bench/truth/table.ts Row). */
interface TruthRow {
  analysis: string;
  lang: string;
  defect: string;
  truth: string;
  agreement: string;
  partial: string;
  failures: string;
}

function truthRow(c: Corpus, r: Row): TruthRow {
  const union = r.a.truth + r.a.extra.length;
  return {
    analysis: `type relations (syntax+server): ${r.analysis}`,
    lang: c.lang,
    defect: 'structure from parse trees',
    truth: c.oracle,
    agreement: `${r.a.matched}/${union} (${agreementPct(r.a)}) of the union agree; only lspgate ${r.a.extra.length}, only truth ${r.a.missing.length}`,
    partial: '-',
    failures: r.failures ? `${r.failures} failed calls` : '-',
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--json');
  const json = at >= 0 ? argv.splice(at, 2)[1] : undefined;
  const wanted = argv;
  const corpora = CORPORA.filter((c) => !wanted.length || wanted.includes(c.lang));
  const rows: TruthRow[] = [];
  const table = [
    '| language | analysis | truth edges | found | matched | missing | extra | failures | agreement |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const details: string[] = [];
  for (const c of corpora) {
    const { rows: measured, notes } = await measure(c);
    details.push(...notes);
    for (const r of measured) {
      rows.push(truthRow(c, r));
      table.push(
        `| ${c.lang} | ${r.analysis} | ${r.a.truth} | ${r.a.found} | ${r.a.matched} | ${r.a.missing.length} | ${r.a.extra.length} | ${r.failures} | ${agreementPct(r.a)} |`,
      );
      for (const m of r.a.missing.slice(0, 8)) details.push(`${c.lang} ${r.analysis} missing: ${m}`);
      for (const x of r.a.extra.slice(0, 8)) details.push(`${c.lang} ${r.analysis} extra: ${x}`);
    }
  }
  process.stdout.write(`${table.join('\n')}\n\n${details.join('\n')}\n`);
  if (json) fs.writeFileSync(path.resolve(json), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
}

await main();
