/**
 * The user's curated data beside the code chunks: the flow corpus (chunks/flow-corpus.ts) and the
 * policy (chunks/policy.ts). Where they come from: `--flow-corpus FILE` / `--policy FILE` (a common
 * flag of mcp, sidecar, repl, daemon and the one-shot commands, kept in LSPGATE_FLOW_CORPUS /
 * LSPGATE_POLICY for the process, so a daemon serving another corpus refuses the attach as for any
 * lspgate setting), else the workspace's `.lspgate/corpus.jsonl` and `.lspgate/policy.json`, read as
 * data only (corpus-input.ts). Incremental: the corpus is verified again when its file changed, when
 * one of the files its resolved names are in changed (their catalog hash), or — while a name does
 * not resolve — when the catalog changed at all (any file may come to declare it). The policy is read
 * again when its file changed; a chunk's category is decided when it is handed out (categoryOf).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import type { FileGate } from '../../catalog/file-gate.js';
import type { ChunkIndex } from '../../chunks/chunk-index.js';
import { readDataFile } from '../../chunks/corpus-input.js';
import { FLOW_CORPUS_KEY, flowChunks, type FlowCorpus, parseFlowCorpus, type Resolved, type UnresolvedRef } from '../../chunks/flow-corpus.js';
import { contentSha256, linesText, splitLines } from '../../chunks/ids.js';
import { type Categorized, categorizer, parsePolicy, type Policy } from '../../chunks/policy.js';
import type { Chunk } from '../../chunks/types.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../util/hash.js';

export const FLOW_CORPUS_ENV = 'LSPGATE_FLOW_CORPUS';
export const POLICY_ENV = 'LSPGATE_POLICY';
const REPO_CORPUS = path.join('.lspgate', 'corpus.jsonl');
const REPO_POLICY = path.join('.lspgate', 'policy.json');
/** Unresolved names listed per report (index_stats); the count says how many there are. */
const MAX_LISTED = 100;

/** `--flow-corpus` and `--policy`: in effect for every workspace this process serves, by absolute path. */
export function applyCorpusFlags(flags: { flowCorpus?: string | undefined; policy?: string | undefined }): void {
  for (const [value, env, flag] of [
    [flags.flowCorpus, FLOW_CORPUS_ENV, '--flow-corpus'],
    [flags.policy, POLICY_ENV, '--policy'],
  ] as const) {
    if (value === undefined) continue;
    if (value.trim() === '') throw new LspgateError('INVALID_INPUT', `${flag} needs a file`);
    process.env[env] = path.resolve(value);
  }
}

/** What the chunk state offers the corpus: its index and its file gate. */
export interface CorpusHost {
  index: ChunkIndex;
  gate(kind: 'code'): FileGate;
}

export interface FlowCorpusReport {
  file: string;
  flows: number;
  steps: number;
  curated_invariants: number;
  /** Names and locations the catalog does not resolve (stale citations), the first MAX_LISTED. */
  unresolved: UnresolvedRef[];
  unresolved_count: number;
  /** Lines or fields not understood. */
  problems: string[];
}

export interface PolicyReport {
  file: string;
  rules: number;
  /** Chunks per category. */
  categories: Record<string, number>;
  problems: string[];
}

interface CorpusState {
  fileStamp: string;
  /** The corpus as named (absolute, or `.lspgate/corpus.jsonl`). */
  file: string;
  report?: FlowCorpusReport;
  problem?: string;
  /** Files the resolved names are in → their catalog hash when verified. */
  deps: Map<string, string>;
  /** The catalog version verified at, while a name did not resolve. */
  missingAt?: number;
}

interface PolicyState {
  fileStamp: string;
  file: string;
  policy?: Policy;
  problem?: string;
  categorize?: (file: string) => Categorized | undefined;
}

/** Per chunk index: a reset workspace (a new index) starts again from nothing. */
const corpusStates = new WeakMap<ChunkIndex, CorpusState>();
const policyStates = new WeakMap<ChunkIndex, PolicyState>();

function sourceOf(root: string, env: string): { abs: string; inRepository: boolean } {
  const named = process.env[env === 'corpus' ? FLOW_CORPUS_ENV : POLICY_ENV];
  if (named) return { abs: named, inRepository: false };
  return { abs: path.join(root, env === 'corpus' ? REPO_CORPUS : REPO_POLICY), inRepository: true };
}

function shownAs(root: string, src: { abs: string; inRepository: boolean }): string {
  return src.inRepository ? path.relative(root, src.abs) : src.abs;
}

async function stampOf(abs: string): Promise<string> {
  const st = await stat(abs).catch(() => undefined);
  return st ? `${abs}:${st.size}:${st.mtimeMs}:${st.ino}` : `${abs}:absent`;
}

/** Symbols by their last name segment, for the corpus's names. */
function nameIndex(ws: Workspace): Map<string, CatalogSymbol[]> {
  const out = new Map<string, CatalogSymbol[]>();
  for (const entry of ws.catalog.files().values()) for (const s of entry.symbols) out.set(s.name, [...(out.get(s.name) ?? []), s]);
  return out;
}

const LOC = /^(.+?):(\d+)(?:-(\d+))?$/;

/** The catalog's answer for the corpus's names: a symbol (qualified, package-qualified, or symbol_id), `file:line[-line]`, or a file. */
function resolver(ws: Workspace, host: CorpusHost, deps: Map<string, string>, missing: { any: boolean }) {
  const files = ws.catalog.files();
  let byName: Map<string, CatalogSymbol[]> | undefined;
  const texts = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (rel: string): Promise<string[] | undefined> => {
    let p = texts.get(rel);
    if (!p) {
      p = host
        .gate('code')
        .admit(path.join(ws.root, rel))
        .then((a) => (a.admitted ? splitLines(a.bytes.toString('utf8')) : undefined));
      texts.set(rel, p);
    }
    return p;
  };
  const cite = async (rel: string, start: number, end: number, sym?: CatalogSymbol): Promise<Resolved | undefined> => {
    const entry = files.get(rel)!;
    deps.set(rel, entry.hash);
    const lines = await linesOf(rel);
    if (!lines || end > lines.length || start < 1 || start > end) return undefined;
    return {
      file: rel,
      start_line: start,
      end_line: end,
      content_sha256: contentSha256(linesText(lines, start, end)),
      language: entry.language,
      ...(sym ? { symbol_name: sym.qualified_name, symbol_id: sym.symbol_id, symbol_kind: sym.kind } : {}),
    };
  };
  const symbolNamed = (ref: string): CatalogSymbol | undefined => {
    const name = ref.replace(/\(\)$/, '');
    const last = name.split(/::|[.#\\/]/).pop() ?? name;
    byName ??= nameIndex(ws);
    const candidates = byName.get(last) ?? [];
    return (
      candidates.find((s) => s.symbol_id === name || s.qualified_name === name) ??
      candidates.find((s) => s.qualified_name.endsWith(`.${name}`) || (s.package !== undefined && `${s.package}.${s.qualified_name}`.endsWith(name)))
    );
  };
  return async (ref: string): Promise<Resolved | undefined> => {
    const loc = LOC.exec(ref);
    if (loc && files.has(loc[1]!)) {
      const start = Number(loc[2]);
      const end = loc[3] ? Number(loc[3]) : start;
      const inner = files
        .get(loc[1]!)!
        .symbols.filter((s) => s.line <= start && end <= s.end_line)
        .reduce<CatalogSymbol | undefined>((best, s) => (!best || s.end_line - s.line < best.end_line - best.line ? s : best), undefined);
      return cite(loc[1]!, start, end, inner);
    }
    if (files.has(ref)) {
      const lines = await linesOf(ref);
      return lines ? cite(ref, 1, lines.length) : undefined;
    }
    const sym = loc ? undefined : symbolNamed(ref);
    if (sym && files.has(sym.file)) return cite(sym.file, sym.line, sym.end_line, sym);
    missing.any = true;
    return undefined;
  };
}

function upToDate(ws: Workspace, st: CorpusState | undefined, fileStamp: string): boolean {
  if (!st || st.fileStamp !== fileStamp) return false;
  if (st.missingAt !== undefined && st.missingAt !== ws.catalog.version) return false;
  const files = ws.catalog.files();
  for (const [rel, hash] of st.deps) if (files.get(rel)?.hash !== hash) return false;
  return true;
}

/** The flow corpus's chunks, verified against the catalog; in the index under FLOW_CORPUS_KEY. True when they were made again. */
export async function syncFlowCorpus(ws: Workspace, host: CorpusHost, head: string): Promise<boolean> {
  const src = sourceOf(ws.root, 'corpus');
  const fileStamp = await stampOf(src.abs);
  const before = corpusStates.get(host.index);
  if (upToDate(ws, before, fileStamp)) return false;
  const read = await readDataFile(src.abs, { inRepository: src.inRepository, root: ws.root });
  if (!read || 'problem' in read) {
    host.index.removeFile(FLOW_CORPUS_KEY);
    corpusStates.set(host.index, { fileStamp, file: shownAs(ws.root, src), deps: new Map(), ...(read ? { problem: read.problem } : {}) });
    return true;
  }
  const corpus: FlowCorpus = parseFlowCorpus(read.text);
  const deps = new Map<string, string>();
  const missing = { any: false };
  const rel = path.relative(ws.root, src.abs);
  const citeFile = rel.startsWith('..') || path.isAbsolute(rel) ? FLOW_CORPUS_KEY : rel.split(path.sep).join('/');
  const made = await flowChunks(corpus, { file: citeFile, commitHash: head }, resolver(ws, host, deps, missing));
  host.index.replaceFile(FLOW_CORPUS_KEY, sha256(`${read.hash}\n${[...deps].join('\n')}`), made.chunks);
  corpusStates.set(host.index, {
    fileStamp,
    file: read.file,
    deps,
    ...(missing.any ? { missingAt: ws.catalog.version } : {}),
    report: {
      file: read.file,
      flows: made.flows,
      steps: corpus.steps.length,
      curated_invariants: corpus.invariants.length,
      unresolved: made.unresolved.slice(0, MAX_LISTED),
      unresolved_count: made.unresolved.length,
      problems: corpus.problems,
    },
  });
  return true;
}

/** The policy as it is on disk now (read again when its file changed). */
export async function currentPolicy(ws: Workspace, index: ChunkIndex): Promise<{ state: PolicyState; changed: boolean }> {
  const src = sourceOf(ws.root, 'policy');
  const fileStamp = await stampOf(src.abs);
  const before = policyStates.get(index);
  if (before?.fileStamp === fileStamp) return { state: before, changed: false };
  const read = await readDataFile(src.abs, { inRepository: src.inRepository, root: ws.root });
  let state: PolicyState;
  const file = shownAs(ws.root, src);
  if (!read) state = { fileStamp, file };
  else if ('problem' in read) state = { fileStamp, file, problem: read.problem };
  else {
    const policy = parsePolicy(read.text);
    state = { fileStamp, file, policy, categorize: categorizer(policy) };
  }
  policyStates.set(index, state);
  return { state, changed: true };
}

/**
 * The policy's category and guidance for a chunk, decided when it is handed out (not stored on the
 * chunk: whatever store holds the chunks, a changed policy applies at once to every one).
 */
export function categoryOf(index: ChunkIndex, c: Pick<Chunk, 'file'>): Categorized | undefined {
  return c.file.startsWith(':') ? undefined : policyStates.get(index)?.categorize?.(c.file);
}

/** index_stats' view of the corpus and the policy (after a sync). */
export function corpusReports(index: ChunkIndex): {
  flow_corpus?: FlowCorpusReport | { file: string; problem: string };
  policy?: PolicyReport | { file: string; problem: string };
} {
  const c = corpusStates.get(index);
  const p = policyStates.get(index);
  const out: ReturnType<typeof corpusReports> = {};
  if (c?.report) out.flow_corpus = c.report;
  else if (c?.problem) out.flow_corpus = { file: c.file, problem: c.problem };
  if (p?.policy) {
    const categories: Record<string, number> = {};
    // a chunk's category is its file's: counted from the ids, without reading the chunks
    for (const [file, ids] of index.idsByFile()) {
      const cat = categoryOf(index, { file })?.category;
      if (cat && ids.length) categories[cat] = (categories[cat] ?? 0) + ids.length;
    }
    out.policy = { file: p.file, rules: p.policy.rules.length, categories, problems: p.policy.problems };
  } else if (p?.problem) out.policy = { file: p.file, problem: p.problem };
  return out;
}

/** The state behind corpusReports, for answers that show a symbol's flows and guidance (must-keep.ts). */
export function corpusState(index: ChunkIndex): { problem?: string; report?: FlowCorpusReport } | undefined {
  return corpusStates.get(index);
}

export function policyState(index: ChunkIndex): PolicyState | undefined {
  return policyStates.get(index);
}
