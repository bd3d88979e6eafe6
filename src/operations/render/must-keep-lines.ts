/**
 * The markdown lines of "what must not break": a symbol's invariants, the policy's category and
 * guidance for its file, and the curated flows it is a step of (service/search/must-keep.ts).
 */
import type { MustKeepFlow, MustKeepGuidance } from '../contracts/must-keep.js';

/** The result fields the contracts declare loosely (kept small in tools/list); their shapes are contracts/must-keep.ts's. */
interface Guided {
  guidance?: unknown;
  flows?: unknown;
}

/** One invariant as an edit preview and an impact answer print it: tier, marker, line, its first line of text. */
export function mustNotBreakLine(i: { tier: number; marker: string; start_line: number; text: string }): string {
  return `- must not break (tier ${i.tier}, ${i.marker}, line ${i.start_line}): ${i.text.split('\n')[0]!.trim()}`;
}

export function guidanceLines(r: Guided): string[] {
  const out: string[] = [];
  const g = r.guidance as MustKeepGuidance | undefined;
  if (g?.category) out.push(`- category ${g.category}`);
  for (const w of g?.watch_out ?? []) out.push(`- watch out: ${w}`);
  if (g?.required_tests?.length) out.push(`- run: ${g.required_tests.join(', ')}`);
  if (g?.also_review?.length) out.push(`- also review: ${g.also_review.join(', ')}`);
  for (const f of (r.flows ?? []) as MustKeepFlow[]) {
    const where = f.step_id ? `step ${f.step_id}` : 'entry';
    const stale = f.unresolved?.length ? ` — **stale**: ${f.unresolved.join('; ')} no longer resolve` : '';
    out.push(
      `- flow ${f.flow_id} (${where}${f.reached_in ? ` in ${f.reached_in}` : ''})${f.trigger ? `: ${f.trigger}` : ''}${f.invariants?.length ? `; keeps ${f.invariants.join(', ')}` : ''}${stale}`,
    );
  }
  return out;
}

interface CorpusReport {
  file: string;
  problem?: string;
  flows?: number;
  steps?: number;
  unresolved?: { line: number; flow?: string; step?: string; invariant?: string; field: string; ref: string }[];
  unresolved_count?: number;
  problems?: string[];
  rules?: number;
}

/** index_stats' lines for the flow corpus (its unresolved names: stale citations) and the policy. */
export function corpusLines(flowCorpus: unknown, policy: unknown): string {
  const out: string[] = [];
  const fc = flowCorpus as CorpusReport | undefined;
  if (fc?.problem) out.push(`flow corpus ${fc.file}: ${fc.problem}`);
  else if (fc) {
    out.push(
      `flow corpus ${fc.file}: ${fc.flows} flows, ${fc.steps} steps, ${fc.unresolved_count} unresolved${fc.problems?.length ? `, ${fc.problems.length} problem(s)` : ''}`,
    );
    for (const u of fc.unresolved ?? [])
      out.push(`- **stale** line ${u.line} ${[u.flow, u.step].filter(Boolean).join('/') || u.invariant || ''}: ${u.field} ${u.ref}`);
    for (const p of fc.problems ?? []) out.push(`- ${p}`);
  }
  const p = policy as CorpusReport | undefined;
  if (p?.problem) out.push(`policy ${p.file}: ${p.problem}`);
  else if (p) out.push(`policy ${p.file}: ${p.rules} rules${p.problems?.length ? `; ${p.problems.join('; ')}` : ''}`);
  return out.length ? out.join('\n') + '\n' : '';
}
