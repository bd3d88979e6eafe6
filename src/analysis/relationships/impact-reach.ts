/**
 * Which files can call into a TypeScript or JavaScript module: the module itself and every file
 * that imports it, directly or through files that import it (re-exports included: an over-count,
 * never an under-count), from the import graph (each import resolved by the server). A file the
 * graph does not hold, could not resolve, or that has an import no server resolved (a computed
 * `import()`) may reach anything. A script without `export` declares globals any file may call: no
 * bound. Other languages reach a module without naming its file (Python `import pkg` then
 * `pkg.mod.f()`, Go's package directories): no bound either.
 */
import type { ServiceCall } from '../../service/call.js';
import { diskText } from '../../service/disk-texts.js';
import type { Reach } from '../../service/navigation/new-files-only.js';
import type { ImportGraph } from '../imports/import-graph.js';

const MODULE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXPORTS = /(^|\n)\s*export\s/;

export function reachFrom(call: ServiceCall, graph: ImportGraph): Reach {
  const memo = new Map<string, ((file: string) => boolean) | undefined>();
  const uncertain = (file: string) => !graph.files.has(file) || graph.failed.has(file) || graph.files.get(file)!.imports.some((i) => i.status === 'unresolved');
  return (home) => {
    if (memo.has(home)) return memo.get(home);
    let out: ((file: string) => boolean) | undefined;
    const text = MODULE_FILE.test(home) && graph.files.has(home) ? diskText(call.resolvePath(home, { mustExist: false })) : undefined;
    if (text !== undefined && EXPORTS.test(text)) {
      const closure = new Set([home]);
      const queue = [home];
      while (queue.length)
        for (const { file } of graph.importers.get(queue.pop()!) ?? []) {
          if (closure.has(file)) continue;
          closure.add(file);
          queue.push(file);
        }
      out = (file) => closure.has(file) || uncertain(file);
    }
    memo.set(home, out);
    return out;
  };
}
