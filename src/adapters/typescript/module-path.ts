/** A TypeScript or JavaScript file's "package": its module path, relative to the workspace root without the extension (`src/util/strings`). */
const TS_EXTENSIONS = /\.(d\.)?(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export function tsModulePath(relPath: string): string {
  return relPath.replace(TS_EXTENSIONS, '');
}
