/**
 * Which files outside the workspace an answer may quote (a relative import
 * of `../../sibling/x.ts` returned a preview of that file). Library code is what a definition in
 * the standard library or a dependency shows: node_modules, vendor, site-packages / dist-packages,
 * typeshed stubs, Go's module cache and GOROOT, Python's standard library. Any other outside file
 * keeps its location (path, line) but its text is neither read nor quoted.
 */
import path from 'node:path';

const LIBRARY_SEGMENTS = new Set(['node_modules', 'vendor', 'site-packages', 'dist-packages', 'typeshed', 'typeshed-fallback']);

/** GOROOT/src, the Go module cache, a Python standard library (`lib/python3.x`). */
const LIBRARY_PATTERNS = [/\/go(?:-[\d.]+)?\/src\//, /\/pkg\/mod\//, /\/lib\/python\d(?:\.\d+)?\//];

export function isLibraryPath(abs: string): boolean {
  const p = abs.split(path.sep).join('/');
  if (p.split('/').some((seg) => LIBRARY_SEGMENTS.has(seg))) return true;
  if (LIBRARY_PATTERNS.some((re) => re.test(p))) return true;
  const goroot = process.env.GOROOT;
  return goroot !== undefined && goroot !== '' && p.startsWith(goroot.split(path.sep).join('/') + '/');
}
