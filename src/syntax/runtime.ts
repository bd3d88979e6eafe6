/**
 * The tree-sitter runtime and its grammars, through @vscode/tree-sitter-wasm: one npm package,
 * maintained by the VS Code team, shipping the runtime and prebuilt WASM grammars (its `wasm/`
 * folder lists them; shippedGrammars() reads it) with no install scripts and no native build. A grammar is loaded by its name (`tree-sitter-<name>.wasm`), once per process, on
 * first use. Which files use which grammar is language knowledge: the language profiles say it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { Language, Parser as ParserType, Query as QueryType } from '@vscode/tree-sitter-wasm';

import { LspgateError } from '../errors/errors.js';

export interface TreeSitterModule {
  Parser: typeof ParserType;
  Language: typeof Language;
  Query: typeof QueryType;
}

const require = createRequire(import.meta.url);
let runtime: Promise<TreeSitterModule> | undefined;
const grammars = new Map<string, Promise<Language>>();
/** What has finished loading, for callers that parse synchronously once it has (syntax.ts parseLoaded). */
let loadedRuntime: TreeSitterModule | undefined;
const loadedGrammars = new Map<string, Language>();

/** The runtime and a grammar when both have been loaded (loadRuntime, loadGrammar), else undefined. */
export function loaded(grammar: string): { runtime: TreeSitterModule; language: Language } | undefined {
  const language = loadedGrammars.get(grammar);
  return loadedRuntime && language ? { runtime: loadedRuntime, language } : undefined;
}

function wasmDir(): string {
  return path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
}

// eslint-disable-next-line no-restricted-syntax -- a rule over the package's file names, not over source text
const GRAMMAR_FILE = /^tree-sitter-(.+)\.wasm$/;

/** The names of the grammars the package ships (`typescript`, `tsx`, `go`, `rust` …), sorted. */
export function shippedGrammars(): string[] {
  return readdirSync(wasmDir())
    .map((f) => GRAMMAR_FILE.exec(f)?.[1])
    .filter((g): g is string => g !== undefined)
    .sort();
}

export function loadRuntime(): Promise<TreeSitterModule> {
  runtime ??= (async () => {
    // The package is UMD (CommonJS under Node): required, not imported.
    const mod = require('@vscode/tree-sitter-wasm') as TreeSitterModule;
    await mod.Parser.init({ locateFile: (file: string) => path.join(wasmDir(), file) });
    loadedRuntime = mod;
    return mod;
  })();
  return runtime;
}

/** The grammar of that name; INTERNAL when the package ships none (a profile naming a grammar that is not there). */
export function loadGrammar(name: string): Promise<Language> {
  let lang = grammars.get(name);
  if (!lang) {
    const file = path.join(wasmDir(), `tree-sitter-${name}.wasm`);
    if (!GRAMMAR_FILE.test(path.basename(file)) || name.includes('/') || !existsSync(file)) {
      return Promise.reject(new LspgateError('INTERNAL', `no tree-sitter grammar named ${name} (shipped: ${shippedGrammars().join(', ')})`, { grammar: name }));
    }
    lang = loadRuntime()
      .then((m) => m.Language.load(file))
      .then((l) => (loadedGrammars.set(name, l), l));
    grammars.set(name, lang);
    lang.catch(() => grammars.delete(name));
  }
  return lang;
}
