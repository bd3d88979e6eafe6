/**
 * What lspgate knows about a language, in one object per language: which files are its own and
 * which tree-sitter grammar parses them, the syntax queries that find its imports, decorators,
 * routes, error handling and decision points, its test conventions, comment syntax, declaration
 * rules, what keeps a declaration alive that no reference shows (runtimes, frameworks, a library's
 * API), its package manifests and how its code is cut into chunks. A language is not a server: the
 * typescript adapter serves the typescript and javascript profiles, tsgo uses the same ones, and a
 * language with a grammar but no server can have a profile and no adapter at all. Profiles live in
 * their adapter folder (src/adapters/<lang>/profile.ts), where languages.ts finds them; analysis and
 * service code ask the profile of a file instead of switching on language names.
 */
import type { CatalogSymbol } from '../core/catalog.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { SourcePosition } from '../syntax/positions.js';
import type { SyntaxCapture, SyntaxNode } from '../syntax/syntax.js';
import type {
  AliasSyntax,
  BodySyntax,
  ComplexitySyntax,
  DecorationSyntax,
  DocCommentSyntax,
  NamedDeclarationSyntax,
  PatternSyntax,
  ScriptEntrySyntax,
  SyntaxHook,
  TypeHeaderSyntax,
} from './syntax-hooks.js';

/** A language folder's profile module as the registry sees it: its exports, of which the profiles count. */
export type ProfileModule = Readonly<Record<string, unknown>>;

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
  /**
   * Interpreters a script of the language names in its `#!` line (`sh`, `python3`) → the extension
   * whose grammar parses it: a file with no extension is cataloged by its first line (file-gate.ts
   * reads only its first bytes to decide). A versioned name (`python3.11`) is its base name's.
   */
  readonly interpreters?: Readonly<Record<string, string>>;
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

export interface SyntaxHooks {
  readonly imports?: ImportSyntax;
  readonly patterns?: PatternSyntax;
  readonly complexity?: ComplexitySyntax;
  /** Type declarations and the bases their headers name (extends, implements, embedded types). */
  readonly typeHeaders?: TypeHeaderSyntax;
  /** Imports that bind a name under another one (`import { A as B }`), so a base named `B` is asked about `A`. */
  readonly aliases?: AliasSyntax;
  /**
   * Local declarations a module exports by name in a separate list (`export { a, b as c }`, no
   * `from`): the query captures each listed local name as `@local`.
   */
  readonly exportClauses?: SyntaxHook;
  /** Declarations with their decorators or attributes, and where the block leading to them starts. */
  readonly decorations?: DecorationSyntax;
  /** Function and method bodies: a class chunk leaves them out, a long function is cut between their statements. */
  readonly bodies?: BodySyntax;
  /** The statement that runs a file as a script (Python's `if __name__ == "__main__":`): project_context's entry points. */
  readonly scriptEntry?: ScriptEntrySyntax;
  /** Declarations a doc comment right above documents (PHPDoc), wherever attributes put their header. */
  readonly docComments?: DocCommentSyntax;
  /** The declarations the language's server lists in documentSymbol, read from the tree (the syntax catalog). */
  readonly declarations?: DeclarationSyntax;
  /** Named declarations of a text no server has open (a file at a git ref): changed_symbols' deleted symbols. */
  readonly namedDeclarations?: NamedDeclarationSyntax;
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
  /** The whole one-line signature as the language's adapter writes it (modifiers spelled out); else read from the name's line. */
  signature?: string;
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
   * A re-export (`export … from`): the names it passes on, each under the name importers see
   * (`export { a as b } from` is `{name: 'a', as: 'b'}`); `all` for `export * from`, `namespace` for
   * `export * as ns from` (one object, not the module's members).
   */
  reexports?: { name: string; as: string }[] | 'all' | 'namespace';
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
  /**
   * A package directory's own module files, in the order the import system tries them (Python
   * `__init__.py`, `__init__.pyi`): a relative import of dots only (`from . import x`) imports the
   * package, which runs that file.
   */
  readonly packageModules?: readonly string[];
  /** The files, relative to a package directory, that a submodule `name` of it may be (Python `name.py`, `name/__init__.py`). */
  submoduleFiles?(name: string): string[];
}

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
  /** What a tag line starts with instead of `line` and a space (Go: a directive, kept out of doc comments). */
  readonly tag?: string;
  /** A block comment above a declaration is its doc only when it opens so (Java's `/**`): other block comments are notes. */
  readonly blockDoc?: string;
  /** A one-line declaration's own trailing comment is its doc when no comment above is (gopls shows a struct field's line comment). */
  readonly trailingDoc?: boolean;
}

export interface DeclarationRules {
  /** Blank lines the language's style guide puts around a top-level declaration (PEP 8: 2); inserted text gets them. */
  readonly topLevelGap?: number;
  /** Private by the language's own rule; default: `_name` / `#name`, private/protected modifiers. */
  isPrivate?(s: Pick<CatalogSymbol, 'name' | 'signature'>): boolean;
  /** A module's declaration is visible to importers only when its signature starts with this word (TypeScript/JavaScript `export`). */
  readonly exportKeyword?: string;
  /** A function some framework convention names otherwise: React `useX` hooks, components in .tsx/.jsx. */
  elementType?(s: Pick<CatalogSymbol, 'name' | 'kind'>, file: string): 'hook' | 'component' | undefined;
  /**
   * Leading words a one-line outline signature leaves out, in order, as the adapter's descriptors do
   * (TypeScript's `export` / `export default`: the outline says what a symbol is, the export is its
   * module's). A word is dropped only where the one before it was.
   */
  readonly outlineSignatureLeadingWords?: readonly string[];
  /** Several declarations of one name in one module are one symbol to the compiler (TypeScript declaration merging). */
  readonly mergesDeclarations?: boolean;
  /** list_package_exports follows `export … from` re-exports. */
  readonly reExports?: boolean;
  /**
   * A container listed as a place in the module tree (a namespace) whose items are members of a
   * type all the same: Rust's `impl Type` blocks, which rust-analyzer lists by that name. Its
   * associated functions, types and constants rank as members, never as the module's own declarations.
   */
  holdsMembers?(container: Pick<CatalogSymbol, 'name' | 'kind'>): boolean;
  /** A docstring written inside the declaration (Python), read before any comment above it. */
  bodyDocstring?(lines: string[], selectionLine: number, endLine: number): string | undefined;
}

export interface TypeRules {
  /** Interfaces are satisfied implicitly (Go): only the server's implementation answer relates a type to one. */
  readonly implicitInterfaces?: boolean;
  /**
   * Why the server's own type hierarchy (the LSP requests) is not the language's, when it is not:
   * the hierarchy is then built from the catalog's relations even where the server offers one.
   */
  readonly serverHierarchyPartial?: string;
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
  /**
   * Decorators of the language itself that change how a declaration is bound or typed and register
   * it nowhere (Python `@staticmethod`, `@property`, `@x.setter`): one carrying only these is
   * checked like any other.
   */
  bindsOnly?(decorator: string): boolean;
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
  /**
   * File names that make their directory one of the language's projects, where build tools write
   * their output: an output-named directory (`dist`, `build`) beside one is skipped by the catalog.
   */
  readonly manifests?: readonly string[];
  /** Where the language's standard library and dependencies live: a definition there may be quoted. */
  readonly libraries?: LibraryLocations;
  /**
   * The path the language's tools write before workspace-relative file names (Go's module path, read
   * from go.mod: a coverage profile names `example.com/app/router/router.go`), or undefined.
   */
  modulePath?(m: ManifestReader): string | undefined;
  /**
   * The source file a module path names as the language's imports write it (`./util/strings.js` →
   * `util/strings.ts`, `./util` → `util/index.ts`), given absolute; undefined when none exists.
   */
  moduleFile?(absPath: string): string | undefined;
  /**
   * What the language's server loads, when a project config at `root` narrows it (pyright: its
   * config's `include` and `exclude`, relative to the root; tsserver: its tsconfigs): references outside
   * it are not found. `files`: the language's cataloged files, relative to the root.
   */
  serverScope?(root: string, files: readonly string[]): ServerScope | undefined;
  /**
   * Why the server has no answer at all for a file (gopls: "no package metadata" for a file its build
   * constraints exclude), from its error message, the file's text and its path (a Go file's name
   * can carry its constraint); undefined for any other failure.
   */
  noProjectReason?(lspMessage: string, text: string, file: string): string | undefined;
  /**
   * Code the server reads as unreachable on this machine and reports no references in (pyright:
   * the rest of a module after `if sys.platform != "win32": raise ImportError`): `conditions` are
   * the expressions the server evaluates for this machine (a file testing none of them in an `if`,
   * `elif` or `assert` is not looked at), `hint` a word of its diagnostic that names the unreachable
   * code, which decides (navigation/unreachable-uses.ts).
   */
  unreachable?: { conditions: readonly string[]; hint: string };
}

/** The files a server loads: `include` (all when empty) minus `exclude`, paths or globs relative to the root. */
export interface ServerScope {
  /** The file (and section) that says so. */
  config: string;
  include: string[];
  exclude: string[];
  /** Whether the server loads a root-relative file, when include/exclude cannot say it (several configs). */
  sees?(rel: string): boolean;
}

/** How a path outside the workspace is known for library code (any one rule suffices). */
export interface LibraryLocations {
  /** Path segments (`node_modules`, `site-packages`). */
  readonly segments?: readonly string[];
  /** Patterns over the `/`-separated absolute path (GOROOT's `go/src/`, `lib/python3.11/`). */
  readonly patterns?: readonly RegExp[];
  /** Environment variables naming a library root (GOROOT). */
  readonly environment?: readonly string[];
}

export interface ChunkRules {
  /** What stands for a body a class chunk leaves out: `{ … }`, Python's `...`. */
  readonly elision: string;
}
