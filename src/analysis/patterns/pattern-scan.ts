/**
 * The syntax half of find_patterns: decorator / attribute usage, error-handling styles and HTTP
 * route registrations found on a tree-sitter tree of one file, with its language profile's pattern
 * query and reader. No language server answers these (they are forms of code, not symbols or
 * references). Pure: text in, hits out.
 */
import { syntaxOf } from '../../adapters/languages.js';
import type { PatternFinding, ScanPatternType } from '../../adapters/syntax-hooks.js';
import { inSyntaxWorker, type ParseBounds } from '../../syntax/job-pool.js';
import { WHOLE_FILE_QUERY, withSyntaxTree } from '../../syntax/syntax.js';

export type { ScanPatternType };

export interface PatternHit extends PatternFinding {
  /** 1-based. */
  line: number;
}

/** scanFile in a syntax worker, within the workspace's parse bounds (TIMEOUT / LIMIT_EXCEEDED naming the file past them). */
export function boundedScanFile(relPath: string, text: string, bounds?: ParseBounds, signal?: AbortSignal): Promise<PatternHit[]> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.patterns) return Promise.resolve([]);
  return inSyntaxWorker({ metaUrl: import.meta.url, module: 'pattern-scan', grammar: syntax.grammar, bounds, signal }, 'scanFile', relPath, text);
}

/** Every pattern hit of one file, or [] when lspgate has no grammar or pattern query for it. */
export async function scanFile(relPath: string, text: string): Promise<PatternHit[]> {
  const syntax = syntaxOf(relPath);
  const patterns = syntax?.profile.syntax.patterns;
  if (!syntax || !patterns) return [];
  return withSyntaxTree(
    syntax.grammar,
    text,
    (root, query) => {
      const hits: PatternHit[] = [];
      for (const { node } of query!.captures(root, WHOLE_FILE_QUERY)) {
        const hit = patterns.hit(node);
        if (hit) hits.push({ ...hit, line: node.startPosition.row + 1 });
      }
      return hits;
    },
    patterns.query,
  );
}
