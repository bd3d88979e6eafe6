/**
 * Where the full CLI is loaded from: the bundle `npm run build` makes (dist/bundle/full-main.js,
 * scripts/bundle.mjs: a folder of chunks instead of ~500 modules loaded one by one) when it is there
 * and not older than the compiled modules, else the compiled modules (dist/src/cli/full-main.js). tsc
 * writes every file it compiles each time it runs: a `tsc` after the build makes the bundle stale, and
 * the modules are loaded — never code older than what was compiled last. Run from the TypeScript
 * sources there is no bundle. `LSPGATE_BUNDLE=off` loads the modules, to compare.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The module URL to import for the full CLI. */
export function fullCliUrl(): string {
  // this file's own extension: compiled, or the TypeScript sources (a test runner), which have no bundle
  const ext = path.extname(fileURLToPath(import.meta.url));
  const modules = new URL(`../cli/full-main${ext}`, import.meta.url);
  if (ext !== '.js' || process.env.LSPGATE_BUNDLE === 'off') return modules.href;
  const bundled = new URL('../../bundle/full-main.js', import.meta.url);
  const built = statSync(fileURLToPath(bundled), { throwIfNoEntry: false });
  const compiled = statSync(fileURLToPath(modules), { throwIfNoEntry: false });
  return built && compiled && built.mtimeMs >= compiled.mtimeMs ? bundled.href : modules.href;
}
