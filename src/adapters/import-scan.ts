/**
 * Import statements of one file, found on its syntax tree with its language profile's import query
 * (TS/JS `import … from`, `export … from`, `import x = require()`, `require()`, `import()`; Go import
 * specs; Python `import a.b [as c]` and `from [.]a import b`; PHP `use` and `require`/`include`).
 * Only where each one points is left to the language server (import-resolve.ts): this file never
 * guesses a target.
 */
import { inSyntaxWorker, type ParseBounds } from '../syntax/job-pool.js';
import { lineStartsOf, startOf } from '../syntax/positions.js';
import { type SyntaxNode, WHOLE_FILE_QUERY, withSyntaxTree } from '../syntax/syntax.js';
import type { ScannedImport } from './language-profile.js';
import { syntaxOf } from './languages.js';

export type { ImportKind, ScannedImport } from './language-profile.js';

/** scanImports in a syntax worker, within the workspace's parse bounds (TIMEOUT / LIMIT_EXCEEDED naming the file past them). */
export function boundedScanImports(relPath: string, text: string, bounds?: ParseBounds, signal?: AbortSignal): Promise<ScannedImport[] | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.imports) return Promise.resolve(undefined);
  return inSyntaxWorker({ metaUrl: import.meta.url, module: 'import-scan', grammar: syntax.grammar, bounds, signal }, 'scanImports', relPath, text);
}

/** Every import statement of a file; undefined when lspgate has no grammar or import query for its extension. */
export async function scanImports(relPath: string, text: string): Promise<ScannedImport[] | undefined> {
  const syntax = syntaxOf(relPath);
  const imports = syntax?.profile.syntax.imports;
  if (!syntax || !imports) return undefined;
  const starts = lineStartsOf(text);
  const at = (n: SyntaxNode) => startOf(n, starts);
  return withSyntaxTree(
    syntax.grammar,
    text,
    (root, query) => {
      const out: ScannedImport[] = [];
      for (const m of query!.matches(root, WHOLE_FILE_QUERY)) {
        const stmt = m.captures.find((c) => c.name !== 'spec' && !c.name.startsWith('_'));
        if (!stmt) continue;
        const spec = m.captures.find((c) => c.name === 'spec')?.node;
        const span = { start_line: stmt.node.startPosition.row + 1, end_line: stmt.node.endPosition.row + 1 };
        for (const f of imports.read(stmt.node, stmt.name, spec, at)) out.push({ ...f, ...span });
      }
      return out.sort((a, b) => a.line - b.line || (a.ask[0]?.column ?? 0) - (b.ask[0]?.column ?? 0));
    },
    imports.query,
  );
}
