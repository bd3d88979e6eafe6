/**
 * What lspgate knows about a language, in one object per language: which files are its own and
 * which tree-sitter grammar parses them, the syntax queries that find its imports, decorators,
 * routes, error handling and decision points, its test conventions, comment syntax, declaration
 * rules, what keeps a declaration alive that no reference shows (runtimes, frameworks, a library's
 * API), its package manifests and how its code is cut into chunks. A language is not a server: the
 * typescript adapter serves the typescript and javascript profiles, tsgo uses the same ones, and a
 * language with a grammar but no server can have a profile and no adapter at all. Profiles live in
 * their adapter folder (src/adapters/<lang>/profile.ts) and are listed in languages.ts; analysis and
 * service code ask the profile of a file instead of switching on language names.
 */
import type { CatalogSymbol } from '../core/catalog.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { SyntaxCapture, SyntaxNode } from '../syntax/syntax.js';
import type { SourcePosition } from '../syntax/positions.js';

export interface LanguageProfile {
  /** The descriptor language: `CatalogSymbol.language`, `FileEntry.language`, chunk `language`. */
  readonly name: string;
  /** LSP languageIds that are this language besides its name (servers.json `languageIds` values: `typescriptreact`). */
  readonly languageIds: readonly string[];
  /**
   * File extensions (lower case, with the dot) → the tree-sitter grammar that parses them (a grammar
   * of @vscode/tree-sitter-wasm, by name). Every syntax hook's query is compiled for each grammar here.
   */
  readonly grammars: Readonly<Record<string, string>>;
  readonly syntax: SyntaxHooks;
  readonly tests: TestConventions;
  readonly comments: CommentRules;
  readonly declarations: DeclarationRules;
  readonly types: TypeRules;
  readonly deadCode: DeadCodeRules;
  readonly project: ProjectRules;
  readonly chunks: ChunkRules;
  /**
   * A language server commonly used for the language, when servers.json has no entry for it: what
   * SERVER_NOT_INSTALLED names (semantic operations need a server; the syntax tier answers the rest).
   */
  readonly server?: { readonly name: string; readonly install: string };
}

// ---------------------------------------------------------------------------------------------
// Syntax hooks: a query (compiled for every grammar of the profile) and what reads its captures.
// A new syntax concern (outlines, type headers, chunk boundaries) is one more optional field here
// with a `query`: syntaxQueries() in languages.ts lists it, and the per-grammar compile test covers it.

export interface SyntaxHook {
  /** Tree-sitter query source. */
  readonly query: string;
}

export interface SyntaxHooks {
  readonly imports?: ImportSyntax;
  readonly patterns?: PatternSyntax;
  readonly complexity?: ComplexitySyntax;
  /** The declarations the language's server lists in documentSymbol, read from the tree (the syntax catalog). */
  readonly declarations?: DeclarationSyntax;
}

/**
 * One declaration as the language's server would list it in documentSymbol — the same nesting,
 * name, kind, range and name position — so that the syntax catalog's ids (`path::Qualified.name#kind`)
 * and byte offsets are the ones the server catalog makes later.
 */
export interface SyntaxSymbol {
  name: string;
  /** The LSP SymbolKind the server sends for it (CatalogSymbol.lsp_kind). */
  lspKind: number;
  /** The kind the language's adapter makes of it (tsserver's Variable `type X =` is a `type`). */
  kind: SymbolKind;
  /** UTF-16 indexes into the file's text: the server's range [start, end). */
  start: number;
  end: number;
  /** Where the server's selectionRange starts: the name, or `start` for what it lists without one. */
  selection: number;
  children: SyntaxSymbol[];
}

export interface DeclarationSyntax {
  /**
   * Tree-sitter query whose captures `read` is given, in document order. Optional: a server whose
   * list is a traversal with rules per node (tsserver's navigation tree) is mirrored by a walk.
   */
  readonly query?: string;
  read(root: SyntaxNode, text: string, captures: readonly SyntaxCapture[]): SyntaxSymbol[];
  /** The file's package or namespace as the language's adapter names it (CatalogSymbol.package / .namespace). */
  packageOf?(file: SyntaxFileInfo, tree: SyntaxNode, text: string): { package?: string; namespace?: string };
}

/** Where a parsed file is: what a profile's package rule may look at (Python walks up its `__init__.py` packages). */
export interface SyntaxFileInfo {
  relPath: string;
  absPath: string;
  workspaceRoot: string;
}

export type ImportKind = 'import' | 'export' | 'require' | 'dynamic' | 'use' | 'include';

export interface ScannedImport {
  kind: ImportKind;
  /** As written: `./math`, `@lib/format`, `example.com/x/y`, `.mathx`, `App\Math\Calc`, `__DIR__ . '/a.php'`. */
  specifier: string;
  /** 1-based line of the specifier. */
  line: number;
  /** 1-based first and last line of the whole statement (a multi-line import binds names above its specifier). */
  start_line: number;
  end_line: number;
  /**
   * 1-based positions (line, UTF-16 column) to ask the server's definition at, best first: the
   * specifier itself, then the imported names (pyright and intelephense resolve names, not strings).
   */
  ask: SourcePosition[];
  /** Names the statement binds or re-exports (`*` for namespace/star forms), when it names any. */
  names: string[];
  /** PHP include of `__DIR__ . '/x.php'` or a plain literal: the path as written, for include resolution. */
  path?: string;
  /**
   * Python `from pkg import name`: the name, asked on its own, because a name can be a submodule
   * (`from email import errors` loads email/errors.py). Kept only where it resolves to that module.
   */
  member?: string;
}

/** One import a statement makes, before the statement's line span is added. */
export type FoundImport = Omit<ScannedImport, 'start_line' | 'end_line'>;

export interface ImportSyntax extends SyntaxHook {
  /**
   * The imports of one match. The query captures the whole statement under the name of its kind
   * (`@import`, `@export`, `@require`, `@dynamic`, `@use`, `@include`, or a kind of the profile's own
   * such as Python's `@from`) and, where there is one, the specifier as `@spec`; other captures
   * (predicate operands) are named `@_…`.
   */
  read(statement: SyntaxNode, kind: string, spec: SyntaxNode | undefined, at: (node: SyntaxNode) => SourcePosition): FoundImport[];
  /** Specifiers the compiler itself provides (Go's `unsafe`, cgo's `C`): resolved, with no file to point at. */
  readonly builtins?: readonly string[];
  /** An import names a package directory (Go): it reaches every non-test file of the directory its definition lands in. */
  readonly namesDirectory?: boolean;
  /** Whether a definition target is a package's own module (Python `pkg/__init__.py`): only a package has submodules. */
  isPackageModule?(target: string): boolean;
  /** Whether a definition target is the module `name` (Python `name.py`, `name/__init__.py`). */
  isModuleNamed?(target: string, name: string): boolean;
}

export type ScanPatternType = 'decorators' | 'error-handling' | 'framework';

export interface PatternFinding {
  pattern_type: ScanPatternType;
  /** The pattern's key in the answer: `@app.route`, `throw HttpError`, `routes Route::get`. */
  name: string;
  description: string;
}

export interface PatternSyntax extends SyntaxHook {
  /** What one captured node is (the query captures candidates as `@node`), or undefined when nothing. */
  hit(node: SyntaxNode): PatternFinding | undefined;
  /** Classes a framework gives a kind of their own (the PHP adapter's Eloquent models: kind `model`). */
  readonly models?: { readonly name: string; readonly description: string };
}

/**
 * Captures `@decision` on every decision point (branches, loops, cases, catches, conditional
 * expressions, short-circuit operators) and `@comment` on comments (lines holding only comments are
 * no lines of code).
 */
export type ComplexitySyntax = SyntaxHook;

// ---------------------------------------------------------------------------------------------

export interface TestRunnerRule {
  /** The runner as project_context names it (`go test`, `pytest`, `jest/vitest`, `phpunit`). */
  readonly runner: string;
  readonly description: string;
  /** File names (the last path segment) the runner collects. */
  readonly files: RegExp;
}

export interface TestConventions {
  readonly runners: readonly TestRunnerRule[];
  /**
   * Directories whose files belong to the tests: tests, their helpers and their inputs (fixtures,
   * testdata, mocks). Compared without case (PHP projects keep tests under `Tests/`).
   */
  readonly directories: readonly string[];
  /** Test functions and methods by the runners' naming rules (dead code, project_context). */
  readonly functionNames?: RegExp;
}

export interface CommentRules {
  /** A line comment's opening (tag_elements writes its tags with it). */
  readonly line: string;
  /** A line that belongs to the leading block of a declaration: decorators, attributes, doc comments. */
  readonly leading: RegExp;
}

export interface DeclarationRules {
  /** Private by the language's own rule; default: `_name` / `#name`, private/protected modifiers. */
  isPrivate?(s: Pick<CatalogSymbol, 'name' | 'signature'>): boolean;
  /** A function some framework convention names otherwise: React `useX` hooks, components in .tsx/.jsx. */
  elementType?(s: Pick<CatalogSymbol, 'name' | 'kind'>, file: string): 'hook' | 'component' | undefined;
  /**
   * Words a one-line outline signature leaves out, as the adapter's descriptors do (TypeScript's
   * `export` / `export default`: the outline says what a symbol is, the export is its module's).
   */
  readonly outlineSignaturePrefix?: RegExp;
  /** Several declarations of one name in one module are one symbol to the compiler (TypeScript declaration merging). */
  readonly mergesDeclarations?: boolean;
  /** list_package_exports follows `export … from` re-exports. */
  readonly reExports?: boolean;
  /** A docstring written inside the declaration (Python), read before any comment above it. */
  bodyDocstring?(lines: string[], selectionLine: number, endLine: number): string | undefined;
  /** Decorator or attribute at the start of a line (`@app.route`, `#[Scope]`): what it names. */
  decoratorAt?(line: string): string | undefined;
}

export interface TypeRules {
  /** The names a declaration header names as the type's bases (find_patterns asks the server where each points). */
  baseNames?(header: string): string[];
  /**
   * Go: the braces of a type's header hold embedded types (`struct{ Dog }`), not a body, and only
   * embedded fields relate types; the names with their index in one header line.
   */
  embeddedNames?(line: string): { 0: string; index: number }[];
  /** Interfaces are satisfied implicitly (Go): only the server's implementation answer relates a type to one. */
  readonly implicitInterfaces?: boolean;
}

/** A workspace's manifests, read on demand (each at most once per answer). */
export interface ManifestReader {
  json(name: string): Record<string, unknown> | undefined;
  text(name: string): string | undefined;
}

export interface DeadCodeRules {
  /** Top-level names the runtime calls (`main`; Go's `init`). */
  readonly entryPoints: readonly string[];
  /** Methods the language itself calls (Python dunders, PHP magic methods). */
  readonly languageHooks?: RegExp;
  /** Why a symbol is a library's exported API by the workspace's manifests, or undefined. */
  exportedApi?(s: CatalogSymbol, manifests: ManifestReader): string | undefined;
}

export interface ProjectPackage {
  name: string;
  kind: string;
  /** Workspace-relative directory (`.` for the root) or the manifest. */
  path: string;
}

export interface ProjectEntry {
  file: string;
  line?: number;
  reason: string;
}

export interface ProjectRules {
  /** The package kinds this language reports (project_context's `kind` values). */
  readonly packageKinds: readonly string[];
  /** Packages the root's manifests declare (package.json, go.mod, pyproject.toml, composer.json). */
  manifestPackages?(m: ManifestReader): ProjectPackage[];
  /** Packages the catalog shows (Go package directories, Python packages, PHP namespaces). */
  catalogPackages?(symbols: readonly CatalogSymbol[], files: readonly string[], m: ManifestReader): ProjectPackage[];
  /** Entry points the manifests declare (package.json main/bin/exports, composer.json bin). */
  manifestEntryPoints?(m: ManifestReader): ProjectEntry[];
  /** A source file the language runs as a script (Python's `if __name__ == "__main__":`): its 1-based line. */
  scriptEntry?(text: string): { line: number; reason: string } | undefined;
}

export interface ChunkRules {
  /** How a long function is cut into statements: by bracket depth, or by indentation (Python). */
  readonly blocks: 'brackets' | 'indentation';
}
