/**
 * get_context's budget: the parts of a context bundle are filled in priority order (source, callers,
 * callees, types, tests, references), each part's items in their ranked order, while the answer —
 * with an `omitted` entry for everything not taken — stays within the token budget. Tokens are
 * counted like every other budget of lspgate (tokensOf: serialized bytes / 4), on the answer itself.
 */
import { tokensOf } from '../../core/paging.js';

export const CONTEXT_PARTS = ['source', 'callers', 'callees', 'types', 'tests', 'references'] as const;
export type ContextPart = (typeof CONTEXT_PARTS)[number];
export type ListPart = Exclude<ContextPart, 'source'>;

export interface Fetch {
  operation: string;
  input: Record<string, unknown>;
}

export interface Omitted {
  part: ContextPart;
  /** Items (lines, for the source) left out. */
  count: number;
  /** The call that returns what was left out. */
  fetch: Fetch;
}

export interface SourcePart {
  start_line: number;
  end_line: number;
  text: string;
}

export interface Gathered {
  /** Fields of the answer that are always there (the symbol itself). */
  head: Record<string, unknown>;
  /** All lines of the symbol's source, from `start_line`. */
  source?: { start_line: number; lines: string[] };
  lists: Partial<Record<ListPart, unknown[]>>;
  fetch: Record<ContextPart, Fetch>;
}

export interface Filled {
  body: Record<string, unknown>;
  truncated: boolean;
  omitted: Omitted[];
}

/** Chosen so far: source lines taken and items taken per list part. */
interface Taken {
  sourceLines: number;
  items: Partial<Record<ListPart, number>>;
}

function build(g: Gathered, t: Taken): Filled {
  const body: Record<string, unknown> = { ...g.head };
  const omitted: Omitted[] = [];
  if (g.source) {
    const n = g.source.lines.length;
    if (t.sourceLines > 0) {
      const part: SourcePart = {
        start_line: g.source.start_line,
        end_line: g.source.start_line + t.sourceLines - 1,
        text: g.source.lines.slice(0, t.sourceLines).join('\n'),
      };
      body.source = part;
    }
    if (t.sourceLines < n) omitted.push({ part: 'source', count: n - t.sourceLines, fetch: g.fetch.source });
  }
  for (const part of CONTEXT_PARTS) {
    if (part === 'source') continue;
    const list = g.lists[part];
    if (!list) continue;
    const k = t.items[part] ?? 0;
    body[part] = list.slice(0, k);
    if (k < list.length) omitted.push({ part, count: list.length - k, fetch: g.fetch[part] });
  }
  return { body: { ...body, truncated: omitted.length > 0, omitted }, truncated: omitted.length > 0, omitted };
}

const fits = (f: Filled, budget: number) => tokensOf(f.body) <= budget;

/**
 * The fullest answer within `budget` tokens. Greedy by priority: a part stops at its first item
 * that does not fit (its order is its ranking), the next part is then tried. Every state checked
 * already carries the `omitted` entries of what is not (yet) taken, so the answer never exceeds the
 * budget, whatever the last step; when even the bare symbol does not fit, that bare answer is given.
 */
export function fillBudget(g: Gathered, budget: number): Filled {
  const t: Taken = { sourceLines: 0, items: {} };
  let best = build(g, t);
  if (g.source) {
    let lo = 0;
    let hi = g.source.lines.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(build(g, { ...t, sourceLines: mid }), budget)) lo = mid;
      else hi = mid - 1;
    }
    t.sourceLines = lo;
    best = build(g, t);
  }
  for (const part of CONTEXT_PARTS) {
    if (part === 'source') continue;
    const list = g.lists[part];
    if (!list) continue;
    for (let k = 1; k <= list.length; k++) {
      const next = build(g, { ...t, items: { ...t.items, [part]: k } });
      if (!fits(next, budget)) break;
      t.items[part] = k;
      best = next;
    }
  }
  return best;
}
