/**
 * `node scripts/bundle.mjs` (the last step of `npm run build`): the full CLI (dist/src/cli/full-main.js
 * and everything it imports, lazy groups as chunks of their own) in one folder, dist/bundle/, with the
 * dependencies that are plain JavaScript inside it. Loading lspgate's 516 modules one by one was most
 * of a warm start before its first answer: the gateway's import took 640–980 ms, the bundle's
 * 450–530 ms (same machine, load 3.3, Node's compile cache on in both). Rolldown (Vite's bundler,
 * already installed beside vitest) because it keeps dynamic imports as chunks and runs a transform
 * hook per module.
 *
 * Every module keeps the `import.meta.url` of its compiled file under dist/src: what it finds beside
 * itself (worker scripts, the job modules workers import, servers.json, the grammars) is found there
 * as before. Left outside the bundle: what finds files in its own package (the tree-sitter runtime's
 * WASM, sqlite-vec's extension), what is loaded only by some calls and is large (pg, Graphviz's WASM).
 * src/link/full-cli.ts loads the bundle when it is there, else dist/src/cli/full-main.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { rolldown } from 'rolldown';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(pkg, 'dist/src');
const out = path.join(pkg, 'dist/bundle');
const EXTERNAL = [/^node:/, /^@vscode\/tree-sitter-wasm/, /^sqlite-vec/, /^pg(\/|$)/, /^@hpcc-js\/wasm-graphviz/];

/**
 * What the `lspgate` entry itself loads before the full CLI (src/link, src/cli/thin: node builtins
 * and each other only, a dependency-cruiser rule) stays outside the bundle, imported from dist/src:
 * one instance of each, whose state both sides share (the daemon's failed start, told once).
 */
const SHARED = [path.join(src, 'link') + path.sep, path.join(src, 'cli/thin') + path.sep, path.join(src, 'cli/main.js')];

/** Each module keeps its own `import.meta.url` (under dist/src, as seen from a chunk in dist/bundle: one folder), and the entry's modules stay its. */
function ownFiles() {
  return {
    name: 'own-files',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const abs = path.resolve(path.dirname(importer), source);
      if (!SHARED.some((s) => abs === s || abs.startsWith(s))) return null;
      // as the chunk in dist/bundle imports it
      return { id: path.relative(out, abs).split(path.sep).join('/'), external: true };
    },
    transform(code, id) {
      if (!id.startsWith(src + path.sep) || !code.includes('import.meta.url')) return null;
      const rel = path.relative(out, id).split(path.sep).join('/');
      return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), map: null };
    },
  };
}

fs.rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: { 'full-main': path.join(src, 'cli/full-main.js') },
  platform: 'node',
  external: EXTERNAL,
  plugins: [ownFiles()],
  logLevel: 'warn',
});
await bundle.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', sourcemap: false });
await bundle.close();
const files = fs.readdirSync(out);
const bytes = files.reduce((n, f) => n + fs.statSync(path.join(out, f)).size, 0);
process.stderr.write(`bundle: ${files.length} files, ${(bytes / 1048576).toFixed(1)} MB in ${pathToFileURL(out).pathname}\n`);
