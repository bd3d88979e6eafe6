/**
 * Syntax trees for the few questions no language server answers (which statements are imports,
 * where their specifiers are). Tree-sitter through @vscode/tree-sitter-wasm: one npm package,
 * maintained by the VS Code team, shipping the runtime and the TypeScript/TSX/JavaScript/Go/
 * Python/PHP grammars as prebuilt WASM, with no install scripts and no native build. The runtime
 * and each grammar load once per process, on first use.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Language, Node, Parser as ParserType, Query as QueryType } from '@vscode/tree-sitter-wasm';
import { LspgateError } from '../errors/errors.js';

export type { Node as SyntaxNode } from '@vscode/tree-sitter-wasm';

export type Grammar = 'typescript' | 'tsx' | 'javascript' | 'go' | 'python' | 'php';

interface TreeSitterModule {
  Parser: typeof ParserType;
  Language: typeof Language;
  Query: typeof QueryType;
}

const require = createRequire(import.meta.url);
let runtime: Promise<TreeSitterModule> | undefined;
const grammars = new Map<Grammar, Promise<Language>>();
const queries = new Map<string, QueryType>();

function wasmDir(): string {
  return path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
}

function loadRuntime(): Promise<TreeSitterModule> {
  runtime ??= (async () => {
    // The package is UMD (CommonJS under Node): required, not imported.
    const mod = require('@vscode/tree-sitter-wasm') as TreeSitterModule;
    await mod.Parser.init({ locateFile: (file: string) => path.join(wasmDir(), file) });
    return mod;
  })();
  return runtime;
}

/** The grammar for a file extension, or undefined when lspgate parses no such files. */
export function grammarFor(relPath: string): Grammar | undefined {
  const ext = path.extname(relPath).toLowerCase();
  switch (ext) {
    case '.ts':
    case '.mts':
    case '.cts':
      return 'typescript';
    case '.tsx':
      return 'tsx';
    case '.js':
    case '.mjs':
    case '.cjs':
    case '.jsx':
      return 'javascript';
    case '.go':
      return 'go';
    case '.py':
    case '.pyi':
      return 'python';
    case '.php':
      return 'php';
    default:
      return undefined;
  }
}

async function language(g: Grammar): Promise<Language> {
  let lang = grammars.get(g);
  if (!lang) {
    lang = loadRuntime().then((m) => m.Language.load(path.join(wasmDir(), `tree-sitter-${g === 'javascript' ? 'javascript' : g}.wasm`)));
    grammars.set(g, lang);
    lang.catch(() => grammars.delete(g));
  }
  return lang;
}

/** A compiled query of one grammar, kept for the process (queries are immutable). */
async function compiled(g: Grammar, source: string): Promise<QueryType> {
  const key = `${g}\0${source}`;
  let q = queries.get(key);
  if (!q) {
    const { Query } = await loadRuntime();
    q = new Query(await language(g), source);
    queries.set(key, q);
  }
  return q;
}

/**
 * Parses a text and hands its root to `use`; the tree is freed afterwards (WASM memory is not
 * garbage-collected), so nodes must not escape `use`.
 */
export async function withSyntaxTree<T>(g: Grammar, text: string, use: (root: Node, query: QueryType | undefined) => T, querySource?: string): Promise<T> {
  const { Parser } = await loadRuntime();
  const query = querySource === undefined ? undefined : await compiled(g, querySource);
  const parser = new Parser();
  try {
    parser.setLanguage(await language(g));
    const tree = parser.parse(text);
    if (!tree) throw new LspgateError('INTERNAL', `the ${g} parser returned no tree`);
    try {
      return use(tree.rootNode, query);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
