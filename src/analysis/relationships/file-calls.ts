/**
 * Call edges at file level: for every function, method and constructor a file declares, its
 * one-level call tree (callers or callees), reduced to the other files involved. depends-on and
 * impact analysis use it; the call tree itself comes from the server (call-tree.ts).
 */
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { callTree, type Direction } from '../../service/navigation/call-tree.js';
import { catalogFileSymbols } from '../../service/symbol-ids.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';
import type { Skips } from '../skips.js';

export const CALLABLE_KINDS = new Set(['function', 'method', 'constructor']);

export interface FileCallEdge {
  /** The other file (the caller's for incoming, the callee's for outgoing). */
  file: string;
  /** 1-based line of the first call site (in the calling file). */
  line: number;
}

/**
 * Other files calling into (incoming) or called from (outgoing) `file`, one edge per file. A call
 * tree per function of the file, for every file a depends-on walk or diagram visits: bulk work, so
 * its requests are background (src/util/work-class.ts) and it yields between functions.
 */
export function fileCallEdges(call: ServiceCall, file: string, direction: Direction, skips: Skips): Promise<FileCallEdge[]> {
  return asBackground(() => collectEdges(call, file, direction, skips));
}

/**
 * A declaration whose call tree fails (gopls: "no package metadata" for a file its build
 * constraints exclude) leaves its file out: it is listed in `skips` and its other declarations
 * are not asked (they would fail alike).
 */
async function collectEdges(call: ServiceCall, file: string, direction: Direction, skips: Skips): Promise<FileCallEdge[]> {
  let symbols;
  try {
    symbols = (await catalogFileSymbols(call, file)) ?? [];
  } catch (e) {
    skips.addError(file, e);
    return [];
  }
  const edges = new Map<string, number>();
  for (const s of symbols) {
    if (!CALLABLE_KINDS.has(s.kind)) continue;
    await yieldToEventLoop();
    let nodes;
    try {
      nodes = (await callTree(call, { symbol_id: s.symbol_id, depth: 1, max_results: 1000 }, direction)).root.calls ?? [];
    } catch (e) {
      // A declaration the server cannot build a call hierarchy item for (gopls: an interface
      // method, pyright: an overload stub) has no call edges of its own.
      if (e instanceof LspgateError && e.code === 'SYMBOL_NOT_FOUND') continue;
      skips.addError(file, e);
      break;
    }
    for (const n of nodes) {
      if (n.file === file) continue;
      // Incoming: the site is in the caller's file; outgoing: in `file` itself.
      const line = n.call_sites?.[0]?.line;
      const prev = edges.get(n.file);
      if (line !== undefined && (prev === undefined || line < prev)) edges.set(n.file, line);
      else if (prev === undefined) edges.set(n.file, s.line);
    }
  }
  return [...edges].map(([f, line]) => ({ file: f, line })).sort((a, b) => a.file.localeCompare(b.file));
}
