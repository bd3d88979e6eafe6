/** What one measured column (raw server, lspgate in-process, lspgate over MCP) reports. */
import type { Kind } from './workloads.js';

export interface KindSamples {
  /** First time each query is asked (ms). */
  cold: number[];
  /** Asked again with the server warm, no response cache (ms). */
  warm: number[];
  /** Asked again with the answer in lspgate's response cache (ms). */
  hit: number[];
}

export interface SuiteResult {
  label: 'raw' | 'lspgate' | 'mcp';
  serverId: string;
  /** Spawn → ready → first documentSymbol answered (ms). */
  startToReadyMs: number;
  kinds: Partial<Record<Kind, KindSamples>>;
  /** documentSymbol over every file (raw) or catalog.build() (lspgate), ms. */
  catalogMs?: number;
  catalogFiles?: number;
  /** catalog.refresh of one changed file, ms. */
  recatalogMs?: number;
  /** The first full import graph (imports-me answered), ms. */
  importGraphBuildMs?: number;
  /** imports-me answered after one changed file was re-cataloged: the graph's incremental update, ms (median of 5). */
  importGraphUpdateMs?: number;
  /** Peak RSS (VmHWM) in MB. */
  selfRssMb?: number;
  serverRssMb?: number;
  /** Failed calls by error code: they are not in the samples. */
  errors: Record<string, number>;
  /** The first message seen per error code (in the JSON file). */
  errorSamples?: Record<string, string>;
  cache?: Record<string, number>;
  /** Pure cache-hit latency of a CachedSession request (ms), no operation around it. */
  sessionHitMs?: number[];
}

export function emptySamples(): KindSamples {
  return { cold: [], warm: [], hit: [] };
}

export function countError(result: SuiteResult, e: unknown, context?: string): void {
  const code = (e as { code?: unknown } | null)?.code;
  const key = typeof code === 'string' ? code : e instanceof Error ? e.name : 'unknown';
  result.errors[key] = (result.errors[key] ?? 0) + 1;
  result.errorSamples ??= {};
  result.errorSamples[key] ??=
    `${context ? `${context}: ` : ''}${e instanceof Error ? e.message : String((e as { message?: unknown } | null)?.message ?? '')}`.slice(0, 300);
}
