/**
 * The markdown lines of "what must not break" beyond a symbol's own invariants: the policy's
 * category and guidance for its file, and the curated flows it is a step of (service/search/must-keep.ts).
 */

interface Guided {
  guidance?: unknown;
  flows?: unknown;
}

interface FlowLine {
  flow_id: string;
  step_id?: string;
  trigger?: string;
  invariants?: string[];
  reached_in?: string;
  unresolved?: string[];
}

interface GuidanceLine {
  category?: string;
  also_review?: string[];
  required_tests?: string[];
  watch_out?: string[];
}

export function guidanceLines(r: Guided): string[] {
  const out: string[] = [];
  const g = r.guidance as GuidanceLine | undefined;
  if (g?.category) out.push(`- category ${g.category}`);
  for (const w of g?.watch_out ?? []) out.push(`- watch out: ${w}`);
  if (g?.required_tests?.length) out.push(`- run: ${g.required_tests.join(', ')}`);
  if (g?.also_review?.length) out.push(`- also review: ${g.also_review.join(', ')}`);
  for (const f of (r.flows ?? []) as FlowLine[]) {
    const where = f.step_id ? `step ${f.step_id}` : 'entry';
    const stale = f.unresolved?.length ? ` — **stale**: ${f.unresolved.join('; ')} no longer resolve` : '';
    out.push(
      `- flow ${f.flow_id} (${where}${f.reached_in ? ` in ${f.reached_in}` : ''})${f.trigger ? `: ${f.trigger}` : ''}${f.invariants?.length ? `; keeps ${f.invariants.join(', ')}` : ''}${stale}`,
    );
  }
  return out;
}
