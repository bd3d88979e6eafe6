/**
 * Parse trees and queries, language-neutral: a text is parsed with a grammar named by the caller
 * (the language profiles decide which grammar a file gets and which queries ask what), and a query
 * is compiled once per (grammar, source) for the process. A query that does not compile for its
 * grammar (a node type the grammar lacks) is a defect of the profile that declared it: it fails as
 * INTERNAL naming the grammar, and test/unit/syntax-queries.test.ts compiles every declared pair.
 */
import type { Node, Query as QueryType } from '@vscode/tree-sitter-wasm';

import { LspgateError } from '../errors/errors.js';
import { loaded, loadGrammar, loadRuntime } from './runtime.js';

export { knowParent, parentOf } from './parents.js';
export { shippedGrammars } from './runtime.js';
export type { QueryCapture as SyntaxCapture, QueryMatch as SyntaxMatch, Node as SyntaxNode, Query as SyntaxQuery } from '@vscode/tree-sitter-wasm';

/**
 * How deep declarations may nest in a cataloged file (catalog-entry.ts checkSymbolDepth refuses
 * deeper symbol trees): each symbol's qualified name and content hash cover its ancestors, so
 * 100,000 nested declarations cost the square of the file. The declaration readers walk without
 * recursion (walk-steps.ts), so this bounds cost, not the stack.
 */
export const MAX_SYNTAX_NESTING = 256;

/** How deep a whole-file query starts matches (WHOLE_FILE_QUERY): real code stays far below. */
export const MAX_TREE_DEPTH = 1000;

/**
 * Options for every query run over a whole file: no match starts deeper than MAX_TREE_DEPTH. A
 * query cursor keeps the matches in progress on the path to its node, so 40,000 nested Java
 * classes cost it 50 s (20,000: 5 s) and 100,000 ran for minutes; what lies deeper than real code
 * nests is left out, and a declaration reader refuses the file before (MAX_SYNTAX_NESTING).
 */
export const WHOLE_FILE_QUERY = { maxStartDepth: MAX_TREE_DEPTH } as const;

/** The coded error of a file nested deeper than a walk goes: the file is skipped, the rest answered. */
export function tooDeeplyNested(limit = MAX_SYNTAX_NESTING): LspgateError {
  return new LspgateError('LIMIT_EXCEEDED', `the file nests more than ${limit} levels deep; it is not cataloged`, { limit });
}

const queries = new Map<string, Promise<QueryType>>();

/** A query compiled for a grammar, kept for the process (queries are immutable). */
export function compileQuery(grammar: string, source: string): Promise<QueryType> {
  const key = `${grammar}\0${source}`;
  let q = queries.get(key);
  if (!q) {
    q = (async () => {
      const { Query } = await loadRuntime();
      const language = await loadGrammar(grammar);
      try {
        return new Query(language, source);
      } catch (e) {
        throw new LspgateError('INTERNAL', `a syntax query does not compile for the ${grammar} grammar: ${(e as Error).message}`, { grammar }, { cause: e });
      }
    })();
    queries.set(key, q);
    // compiled once, answered synchronously afterwards too (a reader re-parsing a text it repaired)
    q.then((c) => compiledQueries.set(key, c)).catch(() => queries.delete(key));
  }
  return q;
}

/** Loads the runtime and a grammar, and compiles queries for it: afterwards parseLoaded and compiledQuery answer synchronously. */
export async function prepareGrammar(grammar: string, querySources: readonly string[]): Promise<void> {
  await loadGrammar(grammar);
  for (const q of querySources) compiledQueries.set(`${grammar}\0${q}`, await compileQuery(grammar, q));
}

const compiledQueries = new Map<string, QueryType>();

/** A query prepareGrammar compiled, or undefined. */
export function compiledQuery(grammar: string, source: string): QueryType | undefined {
  return compiledQueries.get(`${grammar}\0${source}`);
}

/**
 * withSyntaxTree for a grammar already loaded (prepareGrammar): parses in the caller's turn, so a
 * synchronous reader (an adapter interpreting a file) can use a tree. Undefined when not loaded.
 */
export function parseLoaded<T>(grammar: string, text: string, use: (root: Node) => T): T | undefined {
  const ready = loaded(grammar);
  if (!ready) return undefined;
  const parser = new ready.runtime.Parser();
  try {
    parser.setLanguage(ready.language);
    const tree = parser.parse(text);
    if (!tree) throw new LspgateError('INTERNAL', `the ${grammar} parser returned no tree`);
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** One parser per grammar, reused: a parse and its `use` run synchronously, so no two calls share one at once. */
const parsers = new Map<string, InstanceType<Awaited<ReturnType<typeof loadRuntime>>['Parser']>>();

/**
 * Parses a text and hands its root to `use`; the tree is freed afterwards (WASM memory is not
 * garbage-collected), so nodes must not escape `use`.
 */
export async function withSyntaxTree<T>(grammar: string, text: string, use: (root: Node, query: QueryType | undefined) => T, querySource?: string): Promise<T> {
  const { Parser } = await loadRuntime();
  const query = querySource === undefined ? undefined : await compileQuery(grammar, querySource);
  const language = await loadGrammar(grammar);
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(grammar, parser);
  }
  const tree = parser.parse(text);
  if (!tree) throw new LspgateError('INTERNAL', `the ${grammar} parser returned no tree`);
  try {
    return use(tree.rootNode, query);
  } finally {
    tree.delete();
  }
}
