/**
 * The structure hooks a language profile declares (language-profile.ts `syntax`): each is a
 * tree-sitter query and the code that reads its captures — decorators and error handling for
 * find_patterns, decision points for complexity, type headers and their bases, import aliases,
 * decorations, bodies, doc comments, named declarations and script entry points — read on one
 * parse by file-structure.ts.
 */
import type { SourcePosition } from '../syntax/positions.js';
import type { SyntaxNode } from '../syntax/syntax.js';

export interface SyntaxHook {
  /** Tree-sitter query source. */
  readonly query: string;
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
 * expressions, short-circuit operators) and `@comment` on comments, and on documentation written as
 * a string (Python docstrings): lines holding only those are no lines of code.
 */
export type ComplexitySyntax = SyntaxHook;

/** How a type's header relates it to a base: `extends`, `implements`, or a Go embedded field or interface. */
export type BaseRelation = 'extends' | 'implements' | 'embeds';

/** One base a type declaration's header names. */
export interface DeclaredBase {
  /** The name the server resolves: the last part of a dotted or namespaced name (`Base` of `core.Base`). */
  name: string;
  /** The first part (`core` of `core.Base`; the name itself when it has one part): an import alias is looked up by it. */
  head: string;
  relation: BaseRelation;
  /** Where `name` is: the server's definition is asked there. */
  at: SourcePosition;
  /** The reference without generic arguments: `core.Base`, `\App\Base`, `Generic` of `Generic[T]`. */
  text: string;
  /** The reference as written, generic arguments included (`Repository<T, Id>`, `Generic[T]`), whitespace collapsed. */
  written: string;
}

/** A type declaration read from a parse tree. */
export interface TypeHeader {
  name: string;
  /** Where the name is (a catalog symbol's selection position). */
  at: SourcePosition;
  /** In the header's order; generic parameters, constraints and type arguments are never bases. */
  bases: DeclaredBase[];
  /** Modifiers written in the header (`abstract`, `final`, `readonly`), in order. */
  modifiers: string[];
  /** The generic parameter list as written (`<T extends Named>`, Go `[T any]`), whitespace collapsed. */
  type_parameters?: string;
  /**
   * The declaration up to its body, keywords and modifiers included, decorators and comments left
   * out, whitespace collapsed: `export abstract class Shape<T> implements Describable`.
   */
  header?: string;
  /** PHP: the traits the body's `use` statements name, as written (`Concerns\\HasEvents`), in order. */
  traits?: string[];
}

export interface TypeHeaderSyntax extends SyntaxHook {
  /** The query captures each type declaration as `@type`; undefined when the node declares no named type. */
  read(decl: SyntaxNode, at: (node: SyntaxNode) => SourcePosition): TypeHeader | undefined;
}

/** `import { Base as Root }`: `Root` names what the module exports as `Base`; or `_PyFuture = Future` at a module's top level. */
export interface ImportAlias {
  local: string;
  /** The imported (or assigned) name's last part; undefined when the import can bind any name (a default import). */
  imported?: string;
  /** A module-level assignment: other modules reach the name through it (`futures._PyFuture`). */
  assigned?: boolean;
  /** The imported name in full where the import spells it (PHP: `App\\Models\\User` of `use App\\Models\\{User}`, no leading `\\`; Python: `.base.Mixin`). */
  full?: string;
}

/**
 * One match per binding: the bound name as `@local`, the imported name (where there is one) as
 * `@imported`, and a module-level assignment of a name to a name captured whole as `@assigned`.
 */
export interface AliasSyntax extends SyntaxHook {
  /**
   * The full name an import binds `@local` to, as the import spells it (PHP: the group's prefix
   * joined; Python: `.base.Mixin` of `from .base import Mixin`, leading dots kept for the module
   * to resolve); undefined for a binding that is no import. Without it, aliases have no `full`.
   */
  full?(imported: SyntaxNode, local: SyntaxNode): string | undefined;
}

/** A declaration's decorators or attributes, as find_patterns names them (`@app.route`, `#[Scope]`). */
export interface DeclarationDecorations {
  /** The declaration's name node. */
  name: SyntaxNode;
  decorators: { name: string; node: SyntaxNode }[];
  /** The first node of the declaration with its decorators, attributes and `export` keyword. */
  first: SyntaxNode;
}

export interface DecorationSyntax extends SyntaxHook {
  /** The query captures each declaration that can be decorated or documented as `@declaration`. */
  read(decl: SyntaxNode): DeclarationDecorations | undefined;
}

/** Captures `@body` on the body of every function, method and function expression. */
export type BodySyntax = SyntaxHook;

/**
 * Captures `@declaration` on each declaration a doc comment can document (its attributes inside
 * it); `isDoc` says whether a comment ending on the line above one is its doc comment.
 */
export interface DocCommentSyntax extends SyntaxHook {
  isDoc(comment: SyntaxNode): boolean;
}

/** A declaration read from a parse tree, as the catalog would name it. */
export interface NamedDeclaration {
  name: string;
  /** The catalog's kind: function, method, class, interface, trait, enum, namespace, type, struct, variable, constant. */
  kind: string;
  /** The name node (its line is the declaration's selection line). */
  at: SyntaxNode;
  /** The type a method belongs to when that is not its enclosing container (a Go method's receiver type). */
  owner?: string;
}

/**
 * Captures `@declaration` on each declaration that may be named and `@local` on functions written
 * as expressions (callbacks, initialisers: what is declared in them is local). Members of a class,
 * interface, trait, enum or namespace are qualified by it; declarations inside any other are local.
 */
export interface NamedDeclarationSyntax extends SyntaxHook {
  read(decl: SyntaxNode): NamedDeclaration | undefined;
}

export interface ScriptEntrySyntax extends SyntaxHook {
  /** The query captures the statement as `@entry`; `reason` says why it is an entry point. */
  readonly reason: string;
}
