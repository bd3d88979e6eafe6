/**
 * Line coverage from the coverage file a workspace's test run left behind, whichever of the four
 * common formats it is: lcov (`lcov.info`, `coverage/lcov.info`), a Go coverprofile (`coverage.out`,
 * `cover.out`), coverage.py JSON (`coverage.json`), Clover or Cobertura XML (`clover.xml`,
 * `coverage.xml`, `coverage/clover.xml`). Per file: instrumented lines → hit counts. Without a file
 * the answer is null with a note, never a guess.
 *
 * A coverage file is input, not trusted: one over `maxCoverageBytes` is not read; the others are
 * read asynchronously, hashed off the event loop (WebCrypto), and parsed in a worker thread under a
 * deadline and a heap cap (coverage-worker.ts, with the bounded parsers of coverage-formats.ts), so
 * a hostile file costs its own call a bounded time and never stalls another client's. Outcomes —
 * failures included — are cached by content: a file that failed is not parsed again until it
 * changes. (Line counts of the source files, which clamp the ranges, are read at parse time: a
 * coverage file older than its sources is stale whatever lspgate does.)
 */
import { webcrypto } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { LRUCache } from 'lru-cache';

import { languageProfiles } from '../../adapters/languages.js';
import type { Catalog, Derived, DerivedKey } from '../../core/catalog.js';
import { isLspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { ENTRY_OVERHEAD, stringBytes } from '../../util/bounded-memo.js';
import { isInside } from '../../util/paths.js';
import { runWorker, workerScript } from '../../util/worker-script.js';
import { manifestBound, manifestReader } from '../manifests.js';
import { type FileHits, MAX_COVERAGE_LINES } from './coverage-formats.js';
import type { CoverageAnswer, CoverageJob } from './coverage-worker.js';

export type { FileHits };
/** Per workspace file: its instrumented lines and hit counts. */
export type Hits = Map<string, FileHits>;

export const COVERAGE_FILES = [
  'coverage/lcov.info',
  'lcov.info',
  'coverage.out',
  'cover.out',
  'coverage.json',
  'coverage/clover.xml',
  'clover.xml',
  'coverage.xml',
];

export interface CoverageSource {
  file: string;
  hits: Hits;
  /** Lines left out because they lie past their source file's end (or are no line number). */
  clamped: number;
  /** MAX_COVERAGE_LINES was reached: the rest of the file was left out. */
  capped: boolean;
}

export interface CoverageProblem {
  file: string;
  reason: 'too_large' | 'invalid' | 'outside' | 'failed';
  message: string;
}

/** The coverage files found: those that parsed, and those that could not be used, with why. */
export interface CoverageData {
  sources: CoverageSource[];
  problems: CoverageProblem[];
}

type Outcome = { ok: true; source: Omit<CoverageSource, 'file'> } | { ok: false; reason: CoverageProblem['reason']; message: string; code?: string };

const PARSE_DEADLINE_MS = 60_000;
const PARSE_HEAP_MB = 512;

/** The memory a parsed outcome holds: its line and count arrays and its file names. */
function outcomeBytes(o: Outcome): number {
  let n = ENTRY_OVERHEAD + (o.ok ? 0 : stringBytes(o.message));
  if (o.ok) for (const [file, h] of o.source.hits) n += stringBytes(file) + ENTRY_OVERHEAD + h.lines.byteLength + h.counts.byteLength;
  return n;
}

/** Parsed outcomes kept per workspace, at most (a larger one is parsed again on every ask). */
const COVERAGE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * One workspace's parsed coverage files, by name and stat stamp and by content hash: derived state
 * of the workspace (its catalog's DerivedState, dropped with it), bounded in bytes.
 */
class CoverageCache implements Derived {
  /** Worker parses started (tests, status): a cached outcome starts none. */
  parses = 0;
  readonly byName = new Map<string, { stamp: string; outcome: Outcome }>();
  readonly byContent = new LRUCache<string, Outcome>({ maxSize: COVERAGE_CACHE_BYTES, sizeCalculation: (o) => Math.max(1, outcomeBytes(o)) });
  readonly inFlight = new Map<string, Promise<Outcome>>();

  bytes(): number {
    const kept = new Set<Outcome>([...this.byContent.values(), ...[...this.byName.values()].map((k) => k.outcome)]);
    let n = 0;
    for (const o of kept) n += outcomeBytes(o);
    return n;
  }
}

const COVERAGE: DerivedKey<CoverageCache> = { name: 'coverage' };

/** The path the language's tools write before workspace-relative file names (a Go coverage profile's module path), or ''. */
function modulePath(call: ServiceCall): string {
  const manifests = manifestReader(call.root, manifestBound(call));
  for (const rules of new Set(languageProfiles().map((p) => p.project))) {
    const mod = rules.modulePath?.(manifests);
    if (mod) return mod;
  }
  return '';
}

async function parseInWorker(name: string, bytes: Buffer, call: ServiceCall): Promise<Outcome> {
  const job: CoverageJob = { name, bytes, root: call.root, module: name.endsWith('.out') ? modulePath(call) : '', maxFileBytes: call.env.limits.maxFileBytes };
  const what = `parsing ${name}`;
  try {
    const a = await runWorker<CoverageAnswer>(workerScript(import.meta.url, 'coverage-worker'), job, {
      what,
      deadlineMs: PARSE_DEADLINE_MS,
      maxHeapMb: PARSE_HEAP_MB,
      transferList: [bytes.buffer as ArrayBuffer],
    });
    if (!a.ok) return { ok: false, reason: 'invalid', message: `${name} is not valid coverage data: ${a.message}` };
    return { ok: true, source: { hits: new Map(a.files.map((f) => [f.file, f.hits])), clamped: a.clamped, capped: a.capped } };
  } catch (e) {
    return isLspgateError(e)
      ? { ok: false, reason: 'failed', message: `${e.code}: ${e.message}`, code: e.code }
      : { ok: false, reason: 'failed', message: `${what} failed: ${String(e)}` };
  }
}

/** A deterministic outcome is kept for the content; a timeout or crash may pass, so it is asked again next time. */
// (a parse over the heap cap is LIMIT_EXCEEDED: the same content would fail the same way)
const cacheable = (o: Outcome) => o.ok || o.reason !== 'failed' || o.code === 'LIMIT_EXCEEDED';

async function outcomeOf(cache: CoverageCache, name: string, abs: string, call: ServiceCall): Promise<Outcome | undefined> {
  let st;
  try {
    st = statSync(abs);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return undefined;
  const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  const known = cache.byName.get(name);
  if (known?.stamp === stamp) return known.outcome;
  const max = call.env.limits.maxCoverageBytes;
  let outcome: Outcome;
  if (!isInside(realpathSync(call.root), realpathSync(abs)))
    outcome = { ok: false, reason: 'outside', message: `${name} is a link out of the workspace: not read` };
  else if (st.size > max) outcome = { ok: false, reason: 'too_large', message: `${name} is ${st.size} bytes, over maxCoverageBytes ${max}: not read` };
  else {
    const read = await readFile(abs);
    // its memory is handed to the worker (transferred): a Buffer that shares a pooled block is copied first
    const bytes = read.byteOffset === 0 && read.byteLength === read.buffer.byteLength ? read : Buffer.from(read);
    const sha = Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
    const byContent = cache.byContent.get(sha);
    let running = cache.inFlight.get(sha);
    if (byContent) outcome = byContent;
    else {
      if (!running) {
        cache.parses++;
        running = parseInWorker(name, bytes, call).finally(() => cache.inFlight.delete(sha));
        cache.inFlight.set(sha, running);
      }
      outcome = await running;
      if (cacheable(outcome)) cache.byContent.set(sha, outcome);
    }
  }
  if (cacheable(outcome)) cache.byName.set(name, { stamp, outcome });
  return outcome;
}

/** How many coverage files the workspace of `catalog` has parsed so far. */
export function coverageParses(catalog: Catalog): number {
  return catalog.derived.peek(COVERAGE)?.parses ?? 0;
}

/** Every coverage file present (a polyglot workspace has one per language), in COVERAGE_FILES order. */
export async function coverageData(call: ServiceCall): Promise<CoverageData> {
  const cache = call.workspace.catalog.derived.get(COVERAGE, () => new CoverageCache());
  const data: CoverageData = { sources: [], problems: [] };
  for (const name of COVERAGE_FILES) {
    const o = await outcomeOf(cache, name, path.join(call.root, name), call);
    if (!o) continue;
    if (o.ok) data.sources.push({ file: name, ...o.source });
    else data.problems.push({ file: name, reason: o.reason, message: o.message });
  }
  return data;
}

/** What the answer's `_meta` says about the coverage files: each one not used, each one cut. */
export function reportCoverage(call: ServiceCall, data: CoverageData): void {
  for (const p of data.problems) {
    call.meta.warn(`coverage file ${p.message}`);
    if (p.reason === 'too_large') call.meta.limit({ limit: 'maxCoverageBytes', value: call.env.limits.maxCoverageBytes, detail: p.message });
  }
  for (const s of data.sources) {
    if (s.capped)
      call.meta.limit({
        limit: 'coverage_lines',
        value: MAX_COVERAGE_LINES,
        detail: `${s.file}: only its first ${MAX_COVERAGE_LINES} instrumented lines were read`,
      });
    if (s.clamped)
      call.meta.limit({
        limit: 'coverage_line_range',
        value: s.clamped,
        detail: `${s.file}: ${s.clamped} line(s) past the end of their source file left out (ranges clamped to the file's length)`,
      });
  }
}

/** Index of the first line ≥ `line` in the ascending `lines`. */
function lowerBound(lines: Int32Array, line: number): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lines[mid]! < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Share (0..1) of the instrumented lines in [from, to] of a file that ran, or null with why. */
export async function lineCoverage(call: ServiceCall, file: string, from: number, to: number): Promise<{ ratio: number | null; note: string }> {
  const data = await coverageData(call);
  reportCoverage(call, data);
  const unused = data.problems.length ? ` (not used: ${data.problems.map((p) => p.file).join(', ')})` : '';
  if (!data.sources.length)
    return {
      ratio: null,
      note: `no ${data.problems.length ? 'usable ' : ''}coverage file in the workspace (looked for ${COVERAGE_FILES.join(', ')})${unused}`,
    };
  const cov = data.sources.find((c) => c.hits.has(file));
  if (!cov) return { ratio: null, note: `${data.sources.map((c) => c.file).join(', ')} has no data for ${file}${unused}` };
  const { lines, counts } = cov.hits.get(file)!;
  let total = 0;
  let covered = 0;
  for (let i = lowerBound(lines, from); i < lines.length && lines[i]! <= to; i++) {
    total++;
    if (counts[i]! > 0) covered++;
  }
  if (total === 0) return { ratio: null, note: `${cov.file} instruments no line of ${file}:${from}-${to}` };
  return { ratio: Math.round((covered / total) * 1000) / 1000, note: `test_coverage from ${cov.file} (${covered}/${total} instrumented lines ran)` };
}
