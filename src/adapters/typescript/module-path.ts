/** Module paths of TypeScript and JavaScript: a file's own, and the file an import's path names. */
import { existsSync, statSync } from 'node:fs';

/** A TypeScript or JavaScript file's "package": its module path, relative to the workspace root without the extension (`src/util/strings`). */
const TS_EXTENSIONS = /\.(d\.)?(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export function tsModulePath(relPath: string): string {
  return relPath.replace(TS_EXTENSIONS, '');
}

/** What an import may leave out: the source extensions tried after a path without one, in this order. */
const MODULE_EXTS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs'];

const isFile = (abs: string): boolean => existsSync(abs) && statSync(abs).isFile();

/**
 * The source file an import's path names (`src/util/strings` or `src/util/strings.js` → the
 * existing `src/util/strings.ts`): a `.js` path of a TypeScript project is its `.ts` source, as
 * tsc's nodenext resolution reads it.
 */
export function tsModuleFile(abs: string): string | undefined {
  if (isFile(abs)) {
    if (/\.(m|c)?js$/.test(abs)) {
      const ts = abs.replace(/\.(m|c)?js$/, (_m, p: string | undefined) => `.${p ?? ''}ts`);
      if (existsSync(ts)) return ts;
    }
    return abs;
  }
  const noJs = abs.replace(/\.(m|c)?jsx?$/, '');
  for (const ext of MODULE_EXTS) if (isFile(noJs + ext)) return noJs + ext;
  return undefined;
}
