/**
 * Sums a V8 .cpuprofile (from `node --cpu-prof`): self time per function and inclusive time per
 * source file, top N, so a warm-path profile reads without DevTools.
 *
 *   node dist/bench/profile-summary.js FILE.cpuprofile [--top N] [--filter SUBSTRING] [--under FUNCTION]
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [--top N] [--filter S]');
  const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 40;
  const fi = process.argv.indexOf('--filter');
  const filter = fi > 0 ? process.argv[fi + 1] : undefined;
  // --under NAME: only samples whose stack holds a function whose label contains NAME.
  const ui = process.argv.indexOf('--under');
  const under = ui > 0 ? process.argv[ui + 1] : undefined;
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const label = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    if (under) {
      let found = false;
      for (let cur: number | undefined = id; cur !== undefined && !found; cur = parent.get(cur)) found = label(byId.get(cur)!).includes(under);
      if (!found) continue;
    }
    total += us;
    const n = byId.get(id)!;
    self.set(label(n), (self.get(label(n)) ?? 0) + us);
    // Inclusive per function label: each label counted once per stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + us);
    }
  }
  const print = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n## ${title} (total ${(total / 1000).toFixed(0)} ms)\n`);
    const rows = [...m]
      .filter(([k]) => !filter || k.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top);
    for (const [k, us] of rows) process.stdout.write(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}\n`);
  };
  print('self time', self);
  print('inclusive time', incl);
}

function short(url: string): string {
  const i = url.indexOf('/dist/');
  if (i >= 0) return url.slice(i + 6);
  const nm = url.lastIndexOf('node_modules/');
  return nm >= 0 ? url.slice(nm + 13) : url.replace(/^file:\/\//, '');
}

main();
