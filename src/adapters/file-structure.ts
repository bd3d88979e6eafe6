/**
 * The structure of one file read from its parse tree through its language profile's hooks: type
 * declarations with the bases their headers name, imports that rename, declarations with their
 * decorators or attributes and the first line of the block that leads to them (doc comments
 * included), and function bodies with their statements. Syntax only: a base is a name written in a
 * header, which the server's definition then resolves (or not). Pure: text in, structure out.
 */
import { inSyntaxWorker, type ParseBounds } from '../syntax/job-pool.js';
import { lineStartsOf, type SourcePosition, startOf } from '../syntax/positions.js';
import { compiledQuery, parseLoaded, prepareGrammar, type SyntaxNode, type SyntaxQuery, WHOLE_FILE_QUERY } from '../syntax/syntax.js';
import type { LanguageProfile } from './language-profile.js';
import { syntaxOf } from './languages.js';
import { namedChildren } from './structure-forms.js';
import type { AliasSyntax, BaseRelation, DeclaredBase, ImportAlias, SyntaxHook, TypeHeader } from './syntax-hooks.js';

export type { BaseRelation, DeclaredBase, ImportAlias, TypeHeader };

export interface Decoration {
  name: string;
  /** Where the declaration's name is. */
  at: SourcePosition;
  /** As find_patterns names them (`@app.route`, `#[Scope]`), in source order, with their 1-based lines. */
  decorators: { name: string; line: number }[];
  /** 1-based first line of the declaration's leading block: decorators, attributes, `export`, and the comments right above it. */
  leading_line: number;
}

/** A declaration a doc comment can document, and the doc comment right above it (where it has one). */
export interface DocSpan {
  /** 1-based lines of the declaration, its attributes included. */
  start_line: number;
  end_line: number;
  /** UTF-16 offsets of its doc comment in the text. */
  doc?: { start: number; end: number };
}

export interface FileStructure {
  types: TypeHeader[];
  aliases: ImportAlias[];
  /** Local names the file exports through an export list (`export { a, b as c }`: a and b); empty without the hook. */
  exported: string[];
  decorations: Decoration[];
  /** Empty without the profile's docComments hook. */
  docs: DocSpan[];
}

export interface FunctionBody {
  /** UTF-16 offsets of the body in the text (`{ … }`, or a Python block). */
  start: number;
  end: number;
  /** 1-based. */
  start_line: number;
  end_line: number;
  /** 1-based first lines of the body's statements (comments included), in order. */
  statements: number[];
}

type Hooks = Pick<LanguageProfile['syntax'], 'typeHeaders' | 'aliases' | 'exportClauses' | 'decorations' | 'bodies' | 'scriptEntry' | 'docComments'>;
const HOOKS: (keyof Hooks)[] = ['typeHeaders', 'aliases', 'exportClauses', 'decorations', 'bodies', 'scriptEntry', 'docComments'];

/** The query sources of the structure hooks a profile has. */
function hookQueries(profile: LanguageProfile): string[] {
  return HOOKS.map((k) => (profile.syntax[k] as SyntaxHook | undefined)?.query).filter((q): q is string => q !== undefined);
}

/**
 * Loads the grammar of a path and compiles its profile's structure queries, so that structureNow
 * answers synchronously; false when lspgate has no grammar for the path.
 */
export async function prepareStructure(relPath: string): Promise<boolean> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return false;
  await prepareGrammar(syntax.grammar, hookQueries(syntax.profile));
  return true;
}

/** A hook's query, compiled by prepareStructure. */
function query(grammar: string, hook: SyntaxHook | undefined): SyntaxQuery | undefined {
  return hook ? compiledQuery(grammar, hook.query) : undefined;
}

/** The structure of a file, or undefined when lspgate has no grammar for it. */
export async function fileStructure(relPath: string, text: string): Promise<FileStructure | undefined> {
  return (await prepareStructure(relPath)) ? structureNow(relPath, text) : undefined;
}

/**
 * fileStructure in a syntax worker (job-pool.ts), within the workspace's parse bounds: TIMEOUT or
 * LIMIT_EXCEEDED naming the file and the limit past them. What every caller on the daemon's thread uses.
 */
export function boundedFileStructure(relPath: string, text: string, bounds?: ParseBounds, signal?: AbortSignal): Promise<FileStructure | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return Promise.resolve(undefined);
  return inSyntaxWorker(
    { metaUrl: import.meta.url, module: 'file-structure', grammar: syntax.grammar, prepare: 'prepareStructure', bounds, signal },
    'fileStructure',
    relPath,
    text,
  );
}

/** fileStructure in the caller's turn, for a path prepareStructure prepared; undefined otherwise. */
export function structureNow(relPath: string, text: string): FileStructure | undefined {
  const syntax = syntaxOf(relPath);
  if (!syntax) return undefined;
  const { profile, grammar } = syntax;
  return parseLoaded(grammar, text, (root) => {
    const starts = lineStartsOf(text);
    const at = (n: SyntaxNode) => startOf(n, starts);
    const types: TypeHeader[] = [];
    for (const c of query(grammar, profile.syntax.typeHeaders)?.captures(root, WHOLE_FILE_QUERY) ?? []) {
      const t = c.name === 'type' ? profile.syntax.typeHeaders!.read(c.node, at) : undefined;
      if (t) types.push(t);
    }
    const decorations: Decoration[] = [];
    for (const c of query(grammar, profile.syntax.decorations)?.captures(root, WHOLE_FILE_QUERY) ?? []) {
      const d = c.name === 'declaration' ? profile.syntax.decorations!.read(c.node) : undefined;
      if (d)
        decorations.push({
          name: d.name.text,
          at: at(d.name),
          decorators: d.decorators.map((x) => ({ name: x.name, line: at(x.node).line })),
          leading_line: at(leadingComments(d.first)).line,
        });
    }
    const aliases = query(grammar, profile.syntax.aliases);
    const exported = (query(grammar, profile.syntax.exportClauses)?.captures(root, WHOLE_FILE_QUERY) ?? [])
      .filter((c) => c.name === 'local')
      .map((c) => c.node.text);
    return { types, aliases: aliases ? aliasesOf(profile.syntax.aliases!, aliases, root) : [], exported, decorations, docs: docSpans(profile, grammar, root) };
  });
}

function docSpans(profile: LanguageProfile, grammar: string, root: SyntaxNode): DocSpan[] {
  const hook = profile.syntax.docComments;
  const out: DocSpan[] = [];
  for (const c of query(grammar, hook)?.captures(root, WHOLE_FILE_QUERY) ?? []) {
    if (c.name !== 'declaration') continue;
    const decl = c.node;
    const span: DocSpan = { start_line: decl.startPosition.row + 1, end_line: decl.endPosition.row + 1 };
    const above = decl.previousNamedSibling;
    // right above (no blank line between), and not a comment after code on its own line
    if (
      above?.type === 'comment' &&
      above.endPosition.row >= decl.startPosition.row - 1 &&
      hook!.isDoc(above) &&
      above.previousSibling?.endPosition.row !== above.startPosition.row
    ) {
      span.doc = { start: above.startIndex, end: above.endIndex };
    }
    out.push(span);
  }
  return out;
}

/** The doc comment of the innermost declaration spanning a 0-based line, as written; undefined when that declaration has none. */
export function docCommentAt(file: { text: string; structure(): FileStructure | undefined }, line0: number): string | undefined {
  const line = line0 + 1;
  let inner: DocSpan | undefined;
  for (const d of file.structure()?.docs ?? []) {
    if (
      d.start_line <= line &&
      line <= d.end_line &&
      (!inner || d.start_line > inner.start_line || (d.start_line === inner.start_line && d.end_line <= inner.end_line))
    )
      inner = d;
  }
  return inner?.doc ? file.text.slice(inner.doc.start, inner.doc.end) : undefined;
}

/** The comments written right above a node (no blank line between), or the node itself: where its leading block starts. */
function leadingComments(first: SyntaxNode): SyntaxNode {
  let top = first;
  for (let s = first.previousNamedSibling; s && s.type === 'comment' && s.endPosition.row >= top.startPosition.row - 1; s = s.previousNamedSibling) {
    // a comment after code on its line (`x = 1  # note`) belongs to that code
    if (s.previousSibling && s.previousSibling.endPosition.row === s.startPosition.row) break;
    top = s;
  }
  return top;
}

/** A name's last part (`Base` of `A\\Base`, `core.Base`). */
function lastPart(n: SyntaxNode): SyntaxNode {
  let last = n;
  while (last.namedChildCount > 0) last = namedChildren(last).pop()!;
  return last;
}

/** `@local` and `@imported` of each match; an imported or bound name is its last part (`Base` of `A\\Base`). */
function aliasesOf(hook: AliasSyntax, query: SyntaxQuery, root: SyntaxNode): ImportAlias[] {
  const out: ImportAlias[] = [];
  for (const m of query.matches(root, WHOLE_FILE_QUERY)) {
    const local = m.captures.find((c) => c.name === 'local')?.node;
    const imported = m.captures.find((c) => c.name === 'imported')?.node;
    // error recovery's empty name (a trailing comma in a PHP group) binds nothing
    if (!local || lastPart(local).text === '') continue;
    const alias: ImportAlias = { local: lastPart(local).text };
    if (imported) alias.imported = lastPart(imported).text;
    if (m.captures.some((c) => c.name === 'assigned')) alias.assigned = true;
    const full = imported && !alias.assigned ? hook.full?.(imported, local) : undefined;
    if (full !== undefined) alias.full = full;
    out.push(alias);
  }
  return out;
}

/** The statements that run a file as a script (1-based lines, with the language's reason); undefined without the hook. */
export async function scriptEntries(relPath: string, text: string): Promise<{ line: number; reason: string }[] | undefined> {
  const syntax = syntaxOf(relPath);
  const hook = syntax?.profile.syntax.scriptEntry;
  if (!syntax || !hook || !(await prepareStructure(relPath))) return undefined;
  return parseLoaded(syntax.grammar, text, (root) =>
    query(syntax.grammar, hook)!
      .captures(root, WHOLE_FILE_QUERY)
      .filter((c) => c.name === 'entry')
      .map((c) => ({ line: c.node.startPosition.row + 1, reason: hook.reason })),
  );
}

/** A file's type header for a documentSymbol (the declaration whose name is where the symbol's selection starts). */
export function typeHeaderOf(
  file: { structure(): FileStructure | undefined },
  symbol: { name: string; selectionRange: { start: { line: number } } },
): TypeHeader | undefined {
  const line = symbol.selectionRange.start.line + 1;
  const types = file.structure()?.types ?? [];
  return types.find((t) => t.at.line === line && t.name === symbol.name) ?? types.find((t) => t.at.line === line);
}

/** A file's decorations for a documentSymbol, by its selection's line and name. */
export function decorationsOf(
  file: { structure(): FileStructure | undefined },
  symbol: { name: string; selectionRange: { start: { line: number } } },
): Decoration | undefined {
  const line = symbol.selectionRange.start.line + 1;
  return file.structure()?.decorations.find((d) => d.at.line === line && d.name === symbol.name);
}

/** A declaration's attributes or decorators by name without their marks: `#[\\Foo\\Bar(1)]` → `Foo\\Bar`, `@app.route("/")` → `app.route`. */
export function decoratorNames(
  file: { structure(): FileStructure | undefined },
  symbol: { name: string; selectionRange: { start: { line: number } } },
): string[] {
  return (decorationsOf(file, symbol)?.decorators ?? []).map((d) => {
    const bare = d.name.startsWith('#[') ? d.name.slice(2, -1) : d.name.startsWith('@') ? d.name.slice(1) : d.name;
    return bare.startsWith('\\') ? bare.slice(1) : bare;
  });
}

/** functionBodies in a syntax worker, within the parse bounds (boundedFileStructure). */
export function boundedFunctionBodies(relPath: string, text: string, bounds?: ParseBounds, signal?: AbortSignal): Promise<FunctionBody[] | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.bodies) return Promise.resolve(undefined);
  return inSyntaxWorker(
    { metaUrl: import.meta.url, module: 'file-structure', grammar: syntax.grammar, prepare: 'prepareStructure', bounds, signal },
    'functionBodies',
    relPath,
    text,
  );
}

/** scriptEntries in a syntax worker, within the parse bounds (boundedFileStructure). */
export function boundedScriptEntries(
  relPath: string,
  text: string,
  bounds?: ParseBounds,
  signal?: AbortSignal,
): Promise<{ line: number; reason: string }[] | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.scriptEntry) return Promise.resolve(undefined);
  return inSyntaxWorker(
    { metaUrl: import.meta.url, module: 'file-structure', grammar: syntax.grammar, prepare: 'prepareStructure', bounds, signal },
    'scriptEntries',
    relPath,
    text,
  );
}

/** The bodies of a file's functions and methods, outermost first by position; undefined without a grammar or a body hook. */
export async function functionBodies(relPath: string, text: string): Promise<FunctionBody[] | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.bodies || !(await prepareStructure(relPath))) return undefined;
  const bodies = query(syntax.grammar, syntax.profile.syntax.bodies)!;
  return parseLoaded(syntax.grammar, text, (root) => {
    const starts = lineStartsOf(text);
    const out: FunctionBody[] = [];
    for (const c of bodies.captures(root, WHOLE_FILE_QUERY)) {
      if (c.name !== 'body') continue;
      const n = c.node;
      const statements = namedChildren(n).map((s) => startOf(s, starts).line);
      out.push({ start: n.startIndex, end: n.endIndex, start_line: startOf(n, starts).line, end_line: n.endPosition.row + 1, statements });
    }
    return out.sort((a, b) => a.start - b.start || b.end - a.end);
  });
}
