/**
 * The flow corpus (seed 004's `flow_spine` and `flow_step` kinds, and curated `invariant` chunks):
 * a JSONL file of symptom → cause paths through the code that a user curates (`--flow-corpus FILE`,
 * else the repository's `.lspgate/corpus.jsonl`). One JSON object per line, its `chunk_kind` saying
 * which record it is:
 *   {"chunk_kind":"flow_spine","text":"…","flow_spine":{FlowSpineMeta}}
 *   {"chunk_kind":"flow_step","text":"…","flow_step":{FlowStepMeta with calls, reads/writes/emits, branches, invariants}}
 *   {"chunk_kind":"invariant","provenance":"curated","id":"INV-…","text":"…","tier":2,"enforced_at":[{EnforcePoint}]}
 * Every symbol and location a record names (a spine's entry_point and root_symbol, a step's symbol,
 * calls and branches' `at`, an invariant's `loc`) is verified against the catalog, as are the flow,
 * step and invariant ids records name of each other. What does not resolve is listed on the chunk
 * (`unresolved`, its hit a stale citation) and in index_stats, never dropped: a curated step naming
 * a symbol that was since removed is a citation gone stale. A chunk whose symbol resolves cites that
 * symbol's lines (its content_sha256 is theirs, so an edit of them makes it stale like any code
 * chunk); the others cite their line of the corpus.
 */
import type { SymbolKind } from '../schema/descriptors.js';
import { Fields, isObject, MAX_DATA_LINES, parseBounded } from './corpus-input.js';
import { chunkId, contentSha256 } from './ids.js';
import type { Branch, Chunk, EnforcePoint, FlowSpineMeta, FlowStepMeta, InvariantTier } from './types.js';

/** The index key the corpus's chunks are kept under (not a file: the chunks cite files of their own). */
export const FLOW_CORPUS_KEY = ':flow-corpus';

interface Rec {
  line: number;
  raw: string;
  text: string;
}
export interface CorpusSpine extends Rec {
  meta: FlowSpineMeta;
}
export interface CorpusStep extends Rec {
  meta: FlowStepMeta;
}
export interface CorpusInvariant extends Rec {
  id: string;
  tier: InvariantTier;
  enforced_at: EnforcePoint[];
  symbol?: string;
}

export interface FlowCorpus {
  spines: CorpusSpine[];
  steps: CorpusStep[];
  invariants: CorpusInvariant[];
  /** Lines not taken, and fields not understood, with why. */
  problems: string[];
}

/** What a symbol or location named by the corpus is in the catalog now. */
export interface Resolved {
  file: string;
  start_line: number;
  end_line: number;
  /** sha256 of those lines now. */
  content_sha256: string;
  language: string;
  symbol_name?: string;
  symbol_id?: string;
  symbol_kind?: SymbolKind;
}

/** A name or location the catalog does not resolve: where the corpus names it, and what. */
export interface UnresolvedRef {
  line: number;
  flow?: string;
  step?: string;
  invariant?: string;
  field: string;
  ref: string;
}

const MAX_PROBLEMS = 100;
const ID = /^[\w.:/#-]{1,200}$/;

function parseSpine(f: Fields): FlowSpineMeta | undefined {
  f.only(['flow_id', 'entry_point', 'trigger', 'root_symbol', 'links', 'called_by']);
  const flow_id = f.str('flow_id', true);
  if (!flow_id) return undefined;
  const out: FlowSpineMeta = { flow_id };
  for (const k of ['entry_point', 'trigger', 'root_symbol'] as const) {
    const v = f.str(k);
    if (v) out[k] = v;
  }
  for (const k of ['links', 'called_by'] as const) {
    const v = f.strs(k);
    if (v?.length) out[k] = v;
  }
  return out;
}

function parseStep(f: Fields): FlowStepMeta | undefined {
  f.only(['flow_id', 'step_id', 'symbol', 'kind', 'calls', 'reads', 'writes', 'emits', 'branches', 'invariants']);
  const flow_id = f.str('flow_id', true);
  const step_id = f.str('step_id', true);
  if (!flow_id || !step_id) return undefined;
  const out: FlowStepMeta = { flow_id, step_id };
  for (const k of ['symbol', 'kind', 'reads', 'writes', 'emits'] as const) {
    const v = f.str(k);
    if (v) out[k] = v;
  }
  for (const k of ['calls', 'invariants'] as const) {
    const v = f.strs(k);
    if (v?.length) out[k] = v;
  }
  const branches: Branch[] = [];
  for (const b of f.objs('branches') ?? []) {
    b.only(['when', 'then', 'at']);
    const when = b.str('when', true);
    const then = b.str('then', true);
    const at = b.str('at', true);
    if (when !== undefined && then !== undefined && at !== undefined) branches.push({ when, then, at });
  }
  if (branches.length) out.branches = branches;
  return out;
}

function parseInvariant(f: Fields, line: number, raw: string, text: string): CorpusInvariant | undefined {
  const id = f.str('id', true);
  if (id === undefined) return undefined;
  const prov = f.str('provenance');
  if (prov !== undefined && prov !== 'curated') f.problems.push(`line ${line}: a corpus invariant's provenance is "curated", not "${prov.slice(0, 40)}"`);
  const t = f.num('tier');
  if (t !== undefined && t !== 1 && t !== 2 && t !== 3) f.problems.push(`line ${line}: "tier" must be 1, 2 or 3; 2 is used`);
  const enforced_at: EnforcePoint[] = [];
  for (const e of f.objs('enforced_at') ?? []) {
    e.only(['flow', 'step', 'loc']);
    const flow = e.str('flow', true);
    const step = e.str('step', true);
    const loc = e.str('loc', true);
    if (flow !== undefined && step !== undefined && loc !== undefined) enforced_at.push({ flow, step, loc });
  }
  const symbol = f.str('symbol_name');
  const tier = (t === 1 || t === 3 ? t : 2) as InvariantTier;
  return { line, raw, text, id, tier, enforced_at, ...(symbol ? { symbol } : {}) };
}

/** The corpus's records; lines that are not one are problems, said, and the rest is kept. */
export function parseFlowCorpus(text: string): FlowCorpus {
  const out: FlowCorpus = { spines: [], steps: [], invariants: [], problems: [] };
  const lines = text.split(/\r?\n/);
  if (lines.length > MAX_DATA_LINES) out.problems.push(`the corpus has ${lines.length} lines; the first ${MAX_DATA_LINES} are read`);
  lines.slice(0, MAX_DATA_LINES).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const problems: string[] = [];
    let v: unknown;
    try {
      v = parseBounded(raw, `line ${line}`);
    } catch (e) {
      out.problems.push((e as Error).message);
      return;
    }
    if (!isObject(v)) {
      out.problems.push(`line ${line}: not a JSON object`);
      return;
    }
    const f = new Fields(v, `line ${line}`, problems);
    const kind = f.str('chunk_kind', true);
    const body = f.str('text') ?? '';
    if (kind === 'flow_spine') {
      f.only(['chunk_kind', 'text', 'flow_spine']);
      const meta = f.sub('flow_spine');
      const m = meta && parseSpine(meta);
      if (m) out.spines.push({ line, raw, text: body, meta: m });
      else if (!meta) problems.push(`line ${line}: a flow_spine record needs "flow_spine"`);
    } else if (kind === 'flow_step') {
      f.only(['chunk_kind', 'text', 'flow_step']);
      const meta = f.sub('flow_step');
      const m = meta && parseStep(meta);
      if (m) out.steps.push({ line, raw, text: body, meta: m });
      else if (!meta) problems.push(`line ${line}: a flow_step record needs "flow_step"`);
    } else if (kind === 'invariant') {
      f.only(['chunk_kind', 'text', 'id', 'provenance', 'tier', 'enforced_at', 'symbol_name']);
      const inv = parseInvariant(f, line, raw, body);
      if (inv) out.invariants.push(inv);
    } else if (kind !== undefined) problems.push(`line ${line}: chunk_kind "${kind.slice(0, 40)}" is not flow_spine, flow_step or invariant`);
    for (const [id, what] of [
      ...out.spines.filter((s) => s.line === line).map((s) => [s.meta.flow_id, 'flow_id'] as const),
      ...out.steps.filter((s) => s.line === line).flatMap((s) => [[s.meta.flow_id, 'flow_id'] as const, [s.meta.step_id, 'step_id'] as const]),
      ...out.invariants.filter((s) => s.line === line).map((s) => [s.id, 'id'] as const),
    ])
      if (!ID.test(id)) problems.push(`line ${line}: ${what} "${id.slice(0, 60)}" is not an id (letters, digits, . _ : / # -)`);
    out.problems.push(...problems);
  });
  out.problems.splice(MAX_PROBLEMS);
  return out;
}

/** How the corpus's chunks cite it where no symbol resolves: its path in the workspace, or FLOW_CORPUS_KEY outside it. */
export interface CorpusCitation {
  file: string;
  commitHash: string;
}

/** A name a record holds: a symbol or location (resolved by the catalog), or an id of the corpus; `cites`: the chunk cites it when it resolves. */
interface Ref {
  field: string;
  ref: string;
  check?: 'flow' | 'step' | 'invariant';
  cites?: boolean;
}

export interface FlowChunks {
  chunks: Chunk[];
  unresolved: UnresolvedRef[];
  flows: number;
}

/** One corpus's chunks being made: the ids its records name of each other, and what did not resolve. */
class FlowBuilder {
  readonly unresolved: UnresolvedRef[] = [];
  readonly flows: Set<string>;
  private readonly steps: Set<string>;
  private readonly invariantIds: Set<string>;

  constructor(
    corpus: FlowCorpus,
    private readonly cite: CorpusCitation,
    private readonly resolve: (ref: string) => Promise<Resolved | undefined>,
  ) {
    this.flows = new Set(corpus.spines.map((s) => s.meta.flow_id));
    this.steps = new Set(corpus.steps.map((s) => `${s.meta.flow_id}\0${s.meta.step_id}`));
    this.invariantIds = new Set(corpus.invariants.map((i) => i.id));
  }

  /** Whether the name resolves; the first resolving name that `cites` is where the chunk is cited. */
  private async holds(r: Ref, at: { resolved?: Resolved }): Promise<boolean> {
    if (r.check === 'flow') return this.flows.has(r.ref);
    if (r.check === 'step') return this.steps.has(r.ref);
    if (r.check === 'invariant') return this.invariantIds.has(r.ref);
    const x = await this.resolve(r.ref);
    if (r.cites && x) at.resolved ??= x;
    return !!x;
  }

  async make(
    rec: Rec,
    kind: Chunk['chunk_kind'],
    where: Omit<UnresolvedRef, 'field' | 'ref' | 'line'>,
    refs: Ref[],
    summary: string[],
    extra: Partial<Chunk>,
  ): Promise<Chunk> {
    const missing: string[] = [];
    const found: { resolved?: Resolved } = {};
    for (const r of refs) {
      if (await this.holds(r, found)) continue;
      const shown = r.check === 'step' ? r.ref.replace('\0', '/') : r.ref;
      missing.push(`${r.field} ${shown}`);
      this.unresolved.push({ line: rec.line, ...where, field: r.field, ref: shown });
    }
    const at = found.resolved;
    const text = [rec.text, ...summary].filter(Boolean).join('\n');
    const file = at?.file ?? this.cite.file;
    const start = at?.start_line ?? rec.line;
    const end = at?.end_line ?? rec.line;
    const sha = at?.content_sha256 ?? contentSha256(rec.raw);
    return {
      id: chunkId(file, start, end, contentSha256(`${kind}\n${JSON.stringify(where)}\n${sha}\n${text}`)),
      file,
      start_line: start,
      end_line: end,
      language: at?.language ?? 'jsonl',
      is_test: false,
      ...(at?.symbol_name ? { symbol_name: at.symbol_name } : {}),
      ...(at?.symbol_kind ? { symbol_kind: at.symbol_kind } : {}),
      ...(at?.symbol_id ? { symbol_id: at.symbol_id } : {}),
      chunk_kind: kind,
      commit_hash: this.cite.commitHash,
      content_sha256: sha,
      text,
      ...extra,
      ...(missing.length ? { unresolved: missing } : {}),
    };
  }
}

async function spineChunk(b: FlowBuilder, s: CorpusSpine): Promise<Chunk> {
  const m = s.meta;
  const refs: Ref[] = [
    ...(m.root_symbol ? [{ field: 'root_symbol', ref: m.root_symbol, cites: true }] : []),
    ...(m.entry_point && m.entry_point !== m.root_symbol ? [{ field: 'entry_point', ref: m.entry_point, cites: true }] : []),
    ...(m.links ?? []).map((ref) => ({ field: 'links', ref, check: 'flow' as const })),
    ...(m.called_by ?? []).map((ref) => ({ field: 'called_by', ref, check: 'flow' as const })),
  ];
  const summary = [`Flow ${m.flow_id}${m.trigger ? `: ${m.trigger}` : ''}${m.entry_point ? ` → ${m.entry_point}` : ''}`];
  const c = await b.make(s, 'flow_spine', { flow: m.flow_id }, refs, summary, { flow_spine: m });
  return { ...c, symbol_name: c.symbol_name ?? m.flow_id };
}

async function stepChunk(b: FlowBuilder, s: CorpusStep): Promise<Chunk> {
  const m = s.meta;
  const refs: Ref[] = [
    ...(m.symbol ? [{ field: 'symbol', ref: m.symbol, cites: true }] : []),
    { field: 'flow_id', ref: m.flow_id, check: 'flow' as const },
    ...(m.calls ?? []).map((ref) => ({ field: 'calls', ref })),
    ...(m.branches ?? []).map((br, i) => ({ field: `branches[${i}].at`, ref: br.at })),
    ...(m.invariants ?? []).map((ref) => ({ field: 'invariants', ref, check: 'invariant' as const })),
  ];
  const summary = [
    `Step ${m.flow_id}/${m.step_id}${m.symbol ? ` at ${m.symbol}` : ''}${m.kind ? ` (${m.kind})` : ''}`,
    ...(m.calls?.length ? [`calls ${m.calls.join(', ')}`] : []),
    ...(['reads', 'writes', 'emits'] as const).filter((k) => m[k]).map((k) => `${k} ${m[k]}`),
    ...(m.branches ?? []).map((br) => `when ${br.when} → ${br.then} at ${br.at}`),
    ...(m.invariants?.length ? [`keeps ${m.invariants.join(', ')}`] : []),
  ];
  const c = await b.make(s, 'flow_step', { flow: m.flow_id, step: m.step_id }, refs, summary, { flow_step: m });
  return c.symbol_name || !m.symbol ? c : { ...c, symbol_name: m.symbol };
}

async function invariantChunk(b: FlowBuilder, inv: CorpusInvariant): Promise<Chunk> {
  const refs: Ref[] = inv.enforced_at.flatMap((e, i) => [
    { field: `enforced_at[${i}].loc`, ref: e.loc, cites: true },
    { field: `enforced_at[${i}].step`, ref: `${e.flow}\0${e.step}`, check: 'step' as const },
  ]);
  if (inv.symbol) refs.push({ field: 'symbol_name', ref: inv.symbol, cites: true });
  const summary = [`Invariant ${inv.id}`, ...inv.enforced_at.map((e) => `enforced at ${e.flow}/${e.step} ${e.loc}`)];
  const c = await b.make(inv, 'invariant', { invariant: inv.id }, refs, summary, {
    tier: inv.tier,
    marker: inv.id,
    provenance: 'curated',
    ...(inv.enforced_at.length ? { enforced_at: inv.enforced_at } : {}),
  });
  return c.symbol_name || !inv.symbol ? c : { ...c, symbol_name: inv.symbol };
}

/** The corpus's chunks, every name and location it holds resolved (or listed as not resolving) by `resolve`. */
export async function flowChunks(corpus: FlowCorpus, cite: CorpusCitation, resolve: (ref: string) => Promise<Resolved | undefined>): Promise<FlowChunks> {
  const b = new FlowBuilder(corpus, cite, resolve);
  const chunks: Chunk[] = [];
  for (const s of corpus.spines) chunks.push(await spineChunk(b, s));
  for (const s of corpus.steps) chunks.push(await stepChunk(b, s));
  for (const inv of corpus.invariants) chunks.push(await invariantChunk(b, inv));
  return { chunks, unresolved: b.unresolved, flows: b.flows.size };
}
