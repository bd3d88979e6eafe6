import { LRUCache } from 'lru-cache';
import { z } from 'zod';

import { type CachedResult, DependencyRecorder, OperationCache, type OperationCacheStats } from '../cache/operation-cache.js';
import { cloneJson, responseCacheEnabled } from '../cache/response-cache.js';
import type { Workspace } from '../core/workspace.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { Meta } from '../schema/meta.js';
import { cutByDeadline, Deadline } from '../service/deadline.js';
import type { ServiceEnv } from '../service/env.js';
import { MAX_WAIT_MS } from '../service/server-wait.js';
import { labelSyntaxAnswer } from '../service/syntax-label.js';

export { DEFAULT_MAX_MS } from '../service/deadline.js';
export { DEFAULT_WAIT_MS } from '../service/server-wait.js';
import { escapeForText, jsonSafeText } from '../util/control-chars.js';
import { recordDependencies } from '../util/dependency-scope.js';
import { genericMarkdown } from './markdown.js';
import { MetaCollector } from './meta-collector.js';
import type { SavingsLedger } from './savings.js';
import type { AnyZodObject, GatewayHandle, Operation, ProgressUpdate } from './types.js';

export const OutputFormatSchema = z.enum(['json', 'markdown']);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;

/** Fields every operation takes besides its own. */
export const commonInputShape = {
  workspace: z.string().optional().describe('Default: the served root'),
  // the text content's rendering; the structured result is the same either way (default markdown)
  output_format: OutputFormatSchema.optional(),
};

/**
 * The field of every operation that may wait for a language server to start and load its project
 * (`waitsForServers`): past it the call answers NOT_READY and the load goes on (service/server-wait.ts).
 */
export const waitInputShape = {
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    // said short: every tool that asks a server lists it
    .describe('Max ms to wait for the server to load, then NOT_READY (default 20000; the CLI: its readyMs)'),
};

/**
 * The field of every wide operation (`wide`): its deadline. Said once in the MCP server's
 * instructions, not in each tool (tool-schema.ts), as `wait_ms` is.
 */
export const deadlineInputShape = {
  max_ms: z.number().int().min(1).max(MAX_WAIT_MS).optional().describe('Deadline: at it, the answer so far, its first line saying what was cut'),
};

const publicSchemas = new WeakMap<Operation, AnyZodObject>();

/**
 * The full input schema front-ends publish: the operation's own fields plus the common ones.
 * Built once per operation: `extend` makes a new schema that zod compiles again on first parse,
 * which showed as a fixed cost on every call in the benchmark.
 */
export function publicInputSchema(op: Operation): AnyZodObject {
  let schema = publicSchemas.get(op);
  // strict: a field the operation does not know is INVALID_INPUT naming it, never silently dropped.
  // An operation that declares its own `output_format` (project_context's json | markdown | both)
  // keeps it; its `json` and `markdown` still choose the text rendering (ownFormat).
  const own = op.input.shape.output_format ? { output_format: op.input.shape.output_format } : {};
  const wait = op.waitsForServers ? waitInputShape : {};
  const wide = op.wide ? deadlineInputShape : {};
  if (!schema) publicSchemas.set(op, (schema = op.input.extend({ ...commonInputShape, ...wait, ...wide, ...own }).strict()));
  return schema;
}

/** A parsed input with the common fields the runner reads itself. */
type CommonInput = Record<string, unknown> & { workspace?: string; output_format?: OutputFormat | 'both'; wait_ms?: number; max_ms?: number };

export interface RunOptions {
  signal?: AbortSignal;
  progress?: (p: ProgressUpdate) => void;
  /**
   * The bound on waiting for servers when the caller gave no `wait_ms` (the front-end's default:
   * DEFAULT_WAIT_MS for MCP and the sidecar). Without either, a call waits as long as each
   * server's own readiness budget (`timeouts.readyMs`).
   */
  defaultWaitMs?: number;
  /** The deadline of a wide operation when the caller gave no `max_ms` (the front-end's default: DEFAULT_MAX_MS). */
  defaultMaxMs?: number;
}

export interface RunResult {
  /** The structured result, `_meta` included, valid against `op.output`. */
  result: Record<string, unknown> & { _meta: Meta };
  format: OutputFormat;
  /** The result rendered in `format`. */
  text: string;
}

export interface RunnerHost extends GatewayHandle {
  workspaceFor(idOrPath: string | undefined): Promise<Workspace>;
  /** What handlers hand to the service. */
  readonly context: ServiceEnv;
  readonly savings: SavingsLedger;
}

/**
 * Validates input, runs the handler, builds `_meta`, validates output. Every failure leaves as an
 * LspgateError with a code; nothing is swallowed.
 */
export class OperationRunner {
  private readonly byName = new Map<string, Operation>();
  private opCache: OperationCache | undefined;
  /** Validated inputs by their JSON text (parseInput): a pure memo per runner, bounded in bytes (the parsed copy counted as its text again). */
  private readonly parsedInputs = new LRUCache<string, Record<string, unknown>>({
    maxSize: 4 * 1024 * 1024,
    maxEntrySize: 256 * 1024,
    sizeCalculation: (_v, k) => 4 * k.length + 64,
  });
  private defaultWorkspace: Workspace | undefined;
  private readonly cacheEnabled = responseCacheEnabled();
  /** Tokens this runner's answers saved: one client's session (its own process, or its view in the daemon). */
  private sessionSaved = 0;

  constructor(
    operations: readonly Operation[],
    private readonly host: RunnerHost,
  ) {
    for (const op of operations) {
      if (this.byName.has(op.name)) throw new Error(`duplicate operation ${op.name}`);
      this.byName.set(op.name, op);
    }
  }

  list(): Operation[] {
    return [...this.byName.values()];
  }

  get(name: string): Operation | undefined {
    return this.byName.get(name);
  }

  /**
   * The input validated by the operation's public schema. Inputs that are plain JSON (what every
   * transport sends) are remembered by their JSON text: an agent repeats calls, and zod's parse
   * was a fifth of a cached answer's time. Anything else (undefined values, functions, class
   * instances: the JSON text would not be the whole input) is parsed every time.
   */
  private parseInput(op: Operation, rawInput: unknown): Record<string, unknown> {
    const plain = isPlainJson(rawInput, 0);
    const memoKey = plain ? `${op.name}\u0000${JSON.stringify(rawInput)}` : undefined;
    const known = memoKey !== undefined ? this.parsedInputs.get(memoKey) : undefined;
    if (known) return cloneJson(known);
    const parsed = publicInputSchema(op).safeParse(rawInput);
    if (!parsed.success) {
      throw new LspgateError('INVALID_INPUT', `invalid input for ${op.name}: ${missingFields(parsed.error, rawInput) ?? z.prettifyError(parsed.error)}`, {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    const data = parsed.data as Record<string, unknown>;
    if (memoKey !== undefined && isPlainJson(data, 0)) this.parsedInputs.set(memoKey, cloneJson(data));
    return data;
  }

  /** The default workspace is looked up once while it stays open (the gateway's lookup stats the root). */
  private async workspace(wsName: string | undefined): Promise<Workspace> {
    if (wsName !== undefined) return this.host.workspaceFor(wsName);
    const known = this.defaultWorkspace;
    if (known && this.host.workspaces().includes(known)) return known;
    return (this.defaultWorkspace = await this.host.workspaceFor(undefined));
  }

  /**
   * `_meta.total_tokens_saved` is this session's running total: it means something to the agent
   * reading it, and ends with the session. Every client's savings also go to the persisted ledger
   * (`<cacheDir>/savings.json`), which daemon_status reports.
   */
  private saved(tokens: number): number {
    this.host.savings.add(tokens);
    return (this.sessionSaved += tokens);
  }

  /** Hits, misses and size of the operation-level result cache (zeros before the first call). */
  operationCacheStats(): OperationCacheStats {
    return this.opCache?.stats() ?? { hits: 0, misses: 0, stale: 0, stored: 0, entries: 0, bytes: 0 };
  }

  /** Drops every cached operation result (the benchmark's uncached columns). */
  clearOperationCache(): void {
    this.opCache?.clear();
  }

  /**
   * The operation cache key of this call, or undefined when it may not be cached. Freshness can
   * only be proven when every session the broker hands out stamps its answers (the response cache).
   */
  private cacheKey(op: Operation, workspace: Workspace, input: Record<string, unknown>): string | undefined {
    if (!this.cacheEnabled || op.cacheable !== true) return undefined;
    if (!op.annotations.readOnlyHint || !op.annotations.idempotentHint) return undefined;
    if (this.host.context.broker.stampsAnswers !== true) return undefined;
    // Answers that depend on other files (references, callers, definitions elsewhere) learn of
    // changes to those files only through the catalog's watcher (it re-catalogs them and tells the
    // servers, which moves the response cache's stamps); before it watches, nothing is cached.
    if (workspace.catalog.watching !== true) return undefined;
    // A quarter of the response cache's budget: results are small next to the answers behind them.
    this.opCache ??= new OperationCache(Math.floor(this.host.context.limits.cacheBytes / 4));
    // zod's parsed object lists the schema's fields in schema order: the same input, the same key.
    return `${op.name}\u0000${workspace.root}\u0000${JSON.stringify(input)}`;
  }

  private fromCache(op: Operation, hit: CachedResult, workspace: Workspace, started: number, format: OutputFormat): RunResult {
    const body = JSON.parse(hit.bodyJson) as Record<string, unknown>;
    const stored = hit.meta as Omit<Meta, 'timing_ms' | 'workspace' | 'tokens_saved' | 'total_tokens_saved'>;
    const _meta: Meta = {
      timing_ms: 0,
      workspace: workspace.root,
      truncated: stored.truncated,
      tokens_saved: hit.tokensSaved,
      total_tokens_saved: this.saved(hit.tokensSaved),
      index_state: stored.index_state,
      servers: stored.servers,
      ...(stored.limits_hit ? { limits_hit: stored.limits_hit } : {}),
      ...(stored.content_verified !== undefined ? { content_verified: stored.content_verified } : {}),
      ...(stored.warnings ? { warnings: stored.warnings } : {}),
      ...(stored.alternatives ? { alternatives: stored.alternatives } : {}),
      cached: true,
    };
    const result = { ...body, _meta } as RunResult['result'];
    if (format !== 'json') {
      _meta.timing_ms = Math.round((performance.now() - started) * 100) / 100;
      return { result, format, text: this.render(op, result, format) };
    }
    // JSON.stringify(result, null, 2) without printing the body again: the stored body's text
    // with `_meta` appended as its last member (a long reference list took most of a hit).
    hit.bodyPretty ??= JSON.stringify(body, null, 2);
    _meta.timing_ms = Math.round((performance.now() - started) * 100) / 100;
    const metaText = JSON.stringify(_meta, null, 2).replace(/\n/g, '\n  ');
    const head = hit.bodyPretty === '{}' ? '{' : `${hit.bodyPretty.slice(0, -2)},`;
    return { result, format, text: jsonSafeText(`${head}\n  "_meta": ${metaText}\n}`) };
  }

  private render(op: Operation, result: RunResult['result'], format: OutputFormat): string {
    if (format === 'json') return jsonSafeText(JSON.stringify(result, null, 2));
    const safe = escapeForText(result);
    const body = op.markdown ? op.markdown(safe) : genericMarkdown(safe, op.title);
    return cutNotice(safe._meta) + incompleteNotice(safe._meta) + body;
  }

  private labelSyntax(workspace: Workspace, meta: MetaCollector): void {
    labelSyntaxAnswer({ root: workspace.root, catalog: workspace.catalog, servers: this.host.context.servers, sourceFiles: meta.sourceFiles.keys() }, meta);
  }

  private metaOf(meta: MetaCollector, workspace: Workspace, started: number, tokensSaved: number): Meta {
    return {
      timing_ms: Math.round((performance.now() - started) * 100) / 100,
      workspace: workspace.root,
      truncated: meta.truncated,
      ...(meta.nextCursor !== undefined ? { next_cursor: meta.nextCursor } : {}),
      tokens_saved: tokensSaved,
      total_tokens_saved: this.saved(tokensSaved),
      index_state: meta.indexState,
      servers: [...meta.servers.values()],
      ...(meta.limitsHit.length ? { limits_hit: meta.limitsHit } : {}),
      ...(meta.contentVerified !== undefined ? { content_verified: meta.contentVerified } : {}),
      ...(meta.warnings.length ? { warnings: meta.warnings } : {}),
      ...(meta.alternatives.length ? { alternatives: meta.alternatives } : {}),
    };
  }

  /** The answer's size in bytes; LIMIT_EXCEEDED over maxResponseBytes. */
  private sizeWithinLimit(body: Record<string, unknown>): number {
    const bodyBytes = Buffer.byteLength(JSON.stringify(body));
    const maxBytes = this.host.context.limits.maxResponseBytes;
    if (bodyBytes > maxBytes) {
      throw new LspgateError('LIMIT_EXCEEDED', `answer of ${bodyBytes} bytes exceeds maxResponseBytes ${maxBytes}; narrow the query or lower max_results`, {
        limit: 'maxResponseBytes',
        value: maxBytes,
        actual: bodyBytes,
      });
    }
    return bodyBytes;
  }

  async run(name: string, rawInput: unknown, opts: RunOptions = {}): Promise<RunResult> {
    const started = performance.now();
    const op = this.byName.get(name);
    if (!op) {
      throw new LspgateError('UNKNOWN_OPERATION', `unknown operation: ${String(name).slice(0, 100)}`, {
        operations: [...this.byName.keys()],
      });
    }
    const { workspace: wsName, output_format, wait_ms, max_ms, ...input } = this.parseInput(op, rawInput ?? {}) as CommonInput;
    if (op.input.shape.output_format && output_format !== undefined) input.output_format = output_format;
    if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cancelled before start');
    const workspace = await this.workspace(wsName);
    // `both` (project_context) is the structured result with its markdown inside, rendered as markdown.
    const format: OutputFormat = output_format === 'both' ? 'markdown' : (output_format ?? 'markdown');
    // what opening the workspace did (an interrupted apply recovered) is said once, in this answer, never cached
    const notices = workspace.notices?.splice(0) ?? [];
    const cacheKey = notices.length ? undefined : this.cacheKey(op, workspace, input);
    if (cacheKey !== undefined) {
      const hit = this.opCache!.get(cacheKey);
      if (hit) return this.fromCache(op, hit, workspace, started, format);
    }
    // The sessions and files a cacheable answer is built from are recorded while its handler runs.
    const recorder = cacheKey !== undefined ? new DependencyRecorder(workspace.catalog) : undefined;
    const meta = new MetaCollector(recorder);
    for (const n of notices) meta.warn(n);
    for (const notice of this.host.context.notices ?? []) meta.warn(notice);
    const ctx = {
      workspace,
      env: this.host.context,
      gateway: this.host,
      signal: opts.signal,
      progress: opts.progress,
      meta,
      savedTokens: () => ({ session: this.sessionSaved, total: this.host.savings.value }),
      ...waitBound(op, wait_ms, opts),
      ...deadlineOf(op, max_ms, opts, started),
    };
    let body: Record<string, unknown>;
    try {
      const work = () => op.handler(input, ctx);
      body = (await (recorder ? recordDependencies(recorder, work) : work())) as Record<string, unknown>;
    } catch (e) {
      // an error answer has no _meta: the notices wait for the next answer
      workspace.notices?.unshift(...notices);
      throw toLspgateError(e);
    }
    // what the workspace noticed while this answer was made (a catalog save that failed) is said in it, not in a later one
    const late = workspace.notices?.splice(0) ?? [];
    for (const n of late) meta.warn(n);
    // an answer built from syntax trees where no server runs says so (index_state and the markdown notice)
    if (op.answersFrom === undefined) this.labelSyntax(workspace, meta);
    const bodyBytes = this.sizeWithinLimit(body);
    const tokensSaved = Math.max(0, Math.floor((meta.rawBytes() - bodyBytes) / 4));
    const result = { ...body, _meta: this.metaOf(meta, workspace, started, tokensSaved) };
    const checked = op.output.safeParse(result);
    if (!checked.success) {
      throw new LspgateError('INTERNAL', `${name} produced a result that does not match its schema: ${z.prettifyError(checked.error)}`);
    }
    const data = checked.data as RunResult['result'];
    // Never cached: what complete() leaves out, aborted calls; errors never reach this point.
    if (cacheKey !== undefined && !late.length && complete(meta) && !opts.signal?.aborted) {
      const { _meta: m, ...validBody } = data;
      const { timing_ms: _t, workspace: _w, tokens_saved: _s, total_tokens_saved: _tt, ...answerMeta } = m;
      this.opCache!.set(cacheKey, { bodyJson: JSON.stringify(validBody), meta: answerMeta, tokensSaved }, recorder!);
    }
    return { result: data, format, text: this.render(op, data, format) };
  }
}

/**
 * An answer neither still indexing (partial), nor paged (the cursor is not in the cache key), nor
 * cut by its deadline (the same call may finish next time).
 */
function complete(meta: MetaCollector): boolean {
  return meta.indexState === 'ready' && meta.nextCursor === undefined && !cutByDeadline(meta.limitsHit);
}

/** A wide operation's deadline: the caller's `max_ms`, else the front-end's default. */
function deadlineOf(op: Operation, maxMs: number | undefined, opts: RunOptions, started: number): { deadline?: Deadline } {
  const ms = op.wide ? (maxMs ?? opts.defaultMaxMs) : undefined;
  return ms === undefined ? {} : { deadline: new Deadline(ms, started) };
}

/** How long the caller lets the call wait for servers: never part of the answer, nor of its cache key. */
function waitBound(op: Operation, waitMs: number | undefined, opts: RunOptions): { waitMs?: number } {
  const bound = op.waitsForServers ? (waitMs ?? opts.defaultWaitMs) : undefined;
  return bound === undefined ? {} : { waitMs: bound };
}

/** Strings, finite numbers, booleans, null, arrays and plain objects of them (small depth only). */
function isPlainJson(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'object' || depth > 4) return false;
  if (Array.isArray(v)) return v.length <= 100 && v.every((x) => isPlainJson(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/**
 * A cut answer says in its first line what was cut and how to get the rest (`_meta.truncated`,
 * `limits_hit` and `next_cursor` say the same to a program): an agent reads the text, and a
 * `truncated: true` only in `_meta` went unseen while two of three direct callers were missing.
 */
export function cutNotice(meta: Meta): string {
  if (!meta.truncated) return '';
  const what = (meta.limits_hit ?? []).map((h) => `${h.limit} ${h.value}${h.detail ? `: ${h.detail}` : ''}`).join('; ') || 'the answer was cut to its budget';
  const rest = meta.next_cursor !== undefined ? `; the rest: ask again with cursor \`${meta.next_cursor}\`` : '';
  return `> **truncated** — ${what}${rest}\n\n`;
}

/**
 * An answer that is not complete says so in the text an agent reads, not only in `_meta`: a
 * markdown list of "0 symbol(s)" from a catalog with 65 files missing reads as "none". A complete
 * one's warnings are said there too.
 */
function incompleteNotice(meta: Meta): string {
  // a complete answer's warnings (references a server's config leaves out, a fallback that was
  // used) are read in the text too: in `_meta` alone a markdown answer never showed them
  if (meta.index_state === 'ready') return meta.warnings?.length ? `> **note** — ${meta.warnings.join('; ')}\n\n` : '';
  const why = meta.warnings?.length ? `: ${meta.warnings.join('; ')}` : '';
  if (meta.index_state === 'syntax') return `> **index_state: syntax** — answered from syntax trees (tree-sitter), not from a language server${why}\n\n`;
  return `> **index_state: ${meta.index_state}** — this answer may be incomplete${why}\n\n`;
}

/**
 * "`path` is required" when every issue is a top-level field the input left out (zod says
 * "expected string, received undefined → at path"); undefined otherwise.
 */
function missingFields(error: z.ZodError, rawInput: unknown): string | undefined {
  const given = typeof rawInput === 'object' && rawInput !== null ? (rawInput as Record<string, unknown>) : {};
  const missing: string[] = [];
  for (const issue of error.issues) {
    const [field, ...rest] = issue.path;
    if (issue.code !== 'invalid_type' || typeof field !== 'string' || rest.length > 0 || given[field] !== undefined) return undefined;
    missing.push(`\`${field}\``);
  }
  return missing.length === 0 ? undefined : `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`;
}
