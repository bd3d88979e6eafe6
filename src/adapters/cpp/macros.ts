/**
 * C and C++ macros the grammar cannot expand, found in a parse tree: a library's export,
 * visibility, namespace and attribute macros (`class LIB_EXPORT Foo : public Bar`,
 * `LIB_BEGIN_NAMESPACE`, `_GLIBCXX20_CONSTEXPR int f();`, `namespace std _GLIBCXX_VISIBILITY(default)`)
 * break tree-sitter's parse of the declaration around them: error recovery turns a class into a
 * function named by its whole text, or a header into one declaration. As taggers do (universal-ctags'
 * `-I` list, clangd's unexpanded macros), a macro-like identifier — all capitals, digits and
 * underscores — is read as blank where the tree shows it broke the parse: inside an ERROR node,
 * as the type of a declaration that holds an error, as the "name" of a class header followed by the
 * real name, or standing alone among declarations; a macro call's parenthesized arguments go with it.
 * An identifier in capitals that parses (`FILE *f;`, `HANDLE h;`) is a type and stays.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';

/** Keywords error recovery can read as a type or a name (`explicit Foo(int)` outside a class it lost). */
export const CPP_KEYWORDS: ReadonlySet<string> = new Set([
  'alignas',
  'alignof',
  'asm',
  'auto',
  'bool',
  'break',
  'case',
  'catch',
  'char',
  'class',
  'const',
  'consteval',
  'constexpr',
  'constinit',
  'const_cast',
  'continue',
  'co_await',
  'co_return',
  'co_yield',
  'decltype',
  'default',
  'delete',
  'do',
  'double',
  'dynamic_cast',
  'else',
  'enum',
  'explicit',
  'export',
  'extern',
  'false',
  'float',
  'for',
  'friend',
  'goto',
  'if',
  'inline',
  'int',
  'long',
  'mutable',
  'namespace',
  'new',
  'noexcept',
  'nullptr',
  'operator',
  'private',
  'protected',
  'public',
  'register',
  'reinterpret_cast',
  'requires',
  'return',
  'short',
  'signed',
  'sizeof',
  'static',
  'static_assert',
  'static_cast',
  'struct',
  'switch',
  'template',
  'this',
  'thread_local',
  'throw',
  'true',
  'try',
  'typedef',
  'typeid',
  'typename',
  'union',
  'unsigned',
  'using',
  'virtual',
  'void',
  'volatile',
  'while',
]);

const IDENTIFIERS = new Set(['identifier', 'type_identifier', 'namespace_identifier', 'field_identifier', 'statement_identifier']);
const DECLARATIONS = new Set(['declaration', 'field_declaration', 'function_definition']);
const LISTS = new Set(['translation_unit', 'declaration_list', 'field_declaration_list']);
const SPECIFIERS = new Set(['class_specifier', 'struct_specifier', 'union_specifier']);
/** The tokens that open, divide and close a conditional group (`#if X … #else … #endif`). */
const CONDITIONAL_TOKENS = new Set(['#if', '#ifdef', '#ifndef', '#elif', '#elifdef', '#elifndef', '#else', '#endif']);
const CONDITIONALS = new Set(['preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef']);

/**
 * A conditional directive the tree could not fit into a group: a branch that opens a brace the
 * other branch closes (`#if ! ABI\n# include "old.h"\n#else\nnamespace std {` … `}\n#endif`) leaves
 * `#if`, `#else` and `#endif` as stray tokens and the whole file in error. Read as blank with its
 * condition (the rest of its line), every branch is read as code, as a tagger reads them.
 */
function strayDirective(token: SyntaxNode): readonly [number, number] | undefined {
  if (!CONDITIONAL_TOKENS.has(token.type)) return undefined;
  // a group whose branches each hold part of one declaration (`#if X\n template<A, B>\n#else\n template<A>\n#endif\n void f();`) parses with an error
  const group = token.parent;
  if (group && CONDITIONALS.has(group.type) && !group.hasError) return undefined;
  let end = token.endIndex;
  for (let s = token.nextSibling; s && s.startPosition.row === token.startPosition.row; s = s.nextSibling) end = s.endIndex;
  return [token.startIndex, end];
}

/** All capitals, digits and underscores, with at least two capitals (`T`, `N` are template parameters). */
export function macroLike(name: string): boolean {
  let capitals = 0;
  for (const ch of name) {
    if (ch >= 'A' && ch <= 'Z') capitals++;
    else if (!(ch === '_' || (ch >= '0' && ch <= '9'))) return false;
  }
  return capitals >= 2;
}

/** Whether a declaration holds an error outside its body (a body's own errors are the body's). */
function headerHasError(decl: SyntaxNode): boolean {
  const body = decl.childForFieldName('body');
  for (const c of decl.children) if (c && c !== body && (c.isError || c.hasError)) return true;
  return false;
}

/** The declaration an identifier begins (itself inside its first tokens), when it stands in a list of declarations. */
function beginsDeclaration(id: SyntaxNode): SyntaxNode | undefined {
  let x = id;
  while (x.parent && !LISTS.has(x.parent.type)) {
    if (x.parent.startIndex !== id.startIndex) return undefined;
    x = x.parent;
  }
  // (`SPDLOG_NOEXCEPT;` after `size_t thread_id()`: the macro alone, read as an expression statement)
  return x.parent && (DECLARATIONS.has(x.type) || x.type === 'type_definition' || x.type === 'expression_statement') ? x : undefined;
}

/** Whether an identifier begins a declaration right after one whose closing `;` the parser invented (a MISSING node). */
function afterInventedSemicolon(id: SyntaxNode): boolean {
  const prev = beginsDeclaration(id)?.previousSibling;
  const last = prev?.child(prev.childCount - 1);
  return !!last && last.type === ';' && last.isMissing && last.startPosition.row <= id.startPosition.row;
}

/** Whether an identifier is the name a declaration declares (through pointers and references) and the parser invented that declaration's `;`. */
function declaresBeforeInventedSemicolon(id: SyntaxNode): boolean {
  let x = id;
  while (x.parent && (x.parent.type === 'pointer_declarator' || x.parent.type === 'reference_declarator')) x = x.parent;
  const decl = x.parent;
  if (!decl || !DECLARATIONS.has(decl.type) || decl.childForFieldName('declarator')?.id !== x.id) return false;
  const last = decl.child(decl.childCount - 1);
  return !!last && last.type === ';' && last.isMissing;
}

/** Whether an identifier is the scope of a name whose `::` the parser invented (`void LIB_INLINE pool::post(…)`, `LIB_API size_t f()`). */
function scopeBeforeInventedColons(id: SyntaxNode): boolean {
  const parent = id.parent;
  if (parent?.type !== 'qualified_identifier' || parent.childForFieldName('scope')?.id !== id.id) return false;
  // (nextSibling passes over a MISSING node: the parent's children hold it)
  const kids = parent.children;
  const colons = kids[kids.findIndex((k) => k?.id === id.id) + 1];
  return !!colons && colons.type === '::' && colons.isMissing;
}

/** What follows a class head's name when that "name" was a macro: the real name, then `final`, a base clause or the body. */
const NAME_AFTER_MACRO = /^\s+[A-Za-z_]\w*\s*(?:final\b|:(?!:)|\{(?!\s*\}))/;

/** Whether the tree shows that this macro-like identifier broke the declaration it stands in. */
function breaks(id: SyntaxNode, text: string): boolean {
  const parent = id.parent;
  if (!parent) return false;
  if (scopeBeforeInventedColons(id)) return true;
  // `class LIB_VISIBILITY("default") name {`, `class LIB_API name final : public base {`: a class's name is never
  // called, nor followed by another name and then its base clause or body
  if (SPECIFIERS.has(parent.type) && parent.childForFieldName('name')?.id === id.id) {
    const rest = text.slice(id.endIndex, id.endIndex + 256);
    if (rest.startsWith('(') || NAME_AFTER_MACRO.test(rest)) return true;
  }
  if (parent.type === 'ERROR' || LISTS.has(parent.type)) return true;
  // `void swap(string& s)\n  _GLIBCXX_NOEXCEPT_IF(…);`, `virtual ~exception() _GLIBCXX_TXN_SAFE_DYN _GLIBCXX_NOTHROW;`: the
  // parser ended the declaration before the macro with a `;` it had to invent, and read the macro as the next declaration
  if (afterInventedSemicolon(id)) return true;
  // `static void* CPPGC_DEFAULT_ALIGNED Allocate(…);`: the macro read as the name, the parser inventing the `;` after it
  if (declaresBeforeInventedSemicolon(id)) return true;
  // `LIB_API int f();`, `void f() _GLIBCXX_NOEXCEPT {`: the macro read as the type or as the declarator
  if (DECLARATIONS.has(parent.type) && parent.childForFieldName('body')?.id !== id.id) return headerHasError(parent);
  if (parent.type === 'function_declarator' && parent.hasError) return true;
  // `_Tp _M_i _GLIBCXX20_INIT(_Tp());`: the real name in an error just before, the macro's call read as a function declarator
  if (parent.type === 'function_declarator' && parent.childForFieldName('declarator')?.id === id.id && parent.previousSibling?.type === 'ERROR') return true;
  // `_Self& operator++() _GLIBCXX_NOEXCEPT {`: the macro read as the name a reference or pointer declares
  if ((parent.type === 'reference_declarator' || parent.type === 'pointer_declarator') && parent.hasError) return true;
  // `LIB_TRY {` read as a compound literal; `LIB_END_NAMESPACE` read as a statement missing its `;`
  if ((parent.type === 'compound_literal_expression' || parent.type === 'expression_statement') && parent.hasError) return true;
  // `LIB_CATCH(e) {` among declarations: a function with no return type, which only a class's own constructor is
  if (parent.type === 'function_declarator' && parent.childForFieldName('declarator')?.id === id.id) {
    const decl = parent.parent;
    return decl?.type === 'function_definition' && !decl.childForFieldName('type') && LISTS.has(decl.parent?.type ?? '');
  }
  // `class LIB_EXPORT Foo {`: the macro read as the class's name, the real name as a declarator
  if (SPECIFIERS.has(parent.type) && parent.childForFieldName('name')?.id === id.id && !parent.childForFieldName('body')) {
    const decl = parent.parent;
    const declarator = decl?.childForFieldName('declarator');
    if (!decl || !DECLARATIONS.has(decl.type) || decl.childForFieldName('type')?.id !== parent.id) return false;
    // in a class body, `class LIB_TAG failure : public base {` reads as a bit-field `failure` of type `class LIB_TAG`
    // `class _GLIBCXX_NAMESPACE_CXX11 collate : public locale::facet {`: the real name and the base clause's start in an error
    const next = parent.nextSibling;
    if (next?.type === 'ERROR' && next.firstChild?.type === 'identifier') return true;
    // `class V8_EXPORT AgeTable final {` reads as a function definition declaring `AgeTable final`, no function
    if (decl.type === 'function_definition' && declarator?.type === 'qualified_identifier' && !declarator.text.includes('::')) return true;
    return declarator?.type === 'identifier' || declarator?.type === 'type_identifier' || (declarator?.type === 'field_identifier' && decl.hasError);
  }
  return false;
}

/** The span of a macro and of the parenthesized arguments right after it (`LIB_CATCH(x)`, `_GLIBCXX_VISIBILITY(default)`). */
function withArguments(id: SyntaxNode, text: string): readonly [number, number] {
  // balanced in the text, not taken from the tree: arguments no expression holds (`_GLIBCXX_SIMD_OP_(+=)`,
  // `_GLIBCXX20_INIT({})`) make error recovery build an argument list reaching far past them. Only a `(` right
  // after the name opens arguments: `if _GLIBCXX17_CONSTEXPR (__n == 1)` is an object-like macro before a condition.
  return text[id.endIndex] === '(' ? withBalancedArguments(id, text) : [id.startIndex, id.endIndex];
}

/** Characters of an attribute's or a type macro's arguments at most. */
const MAX_ARGUMENT_CHARS = 4096;

/**
 * The span of an identifier and of the balanced parentheses right after it in the text, when error
 * recovery split them over several nodes (`__attribute__((__abi_tag__ ("cxx11")))`); a string's parentheses do not count.
 */
function withBalancedArguments(id: SyntaxNode, text: string): readonly [number, number] {
  let i = id.endIndex;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '(') return [id.startIndex, id.endIndex];
  let depth = 0;
  let quote = '';
  // an argument list longer than any real attribute's or macro's is no argument list (and a hostile file's scans stay linear)
  const end = Math.min(text.length, i + MAX_ARGUMENT_CHARS);
  for (; i < end; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return [id.startIndex, i + 1];
  }
  return [id.startIndex, id.endIndex];
}

/**
 * Whether a macro's call stands as a type (`const STACK_OF(X509) *certs(void);`, `void f(STACK_OF(X509) *sk);`):
 * its arguments, read as blank, leave the macro's name as the type, where the grammar read a declarator
 * in error or a parameter list as a multiplication.
 */
function typeMacro(id: SyntaxNode, text: string): boolean {
  if (text[id.endIndex] !== '(') return false;
  const parent = id.parent;
  if (!parent) return false;
  // `const STACK_OF(X) *f(…);`: the macro read as the type, its arguments as a declarator in error
  if (parent.childForFieldName('type')?.id === id.id) return id.nextSibling?.type === 'ERROR';
  // `void f(T *a, STACK_OF(X) *b);`: the parameters read as a call's arguments, `STACK_OF(X) * b` as a product
  const product = parent.type === 'call_expression' ? parent.parent : null;
  return product?.type === 'binary_expression' && product.childForFieldName('left')?.id === parent.id && product.childForFieldName('operator')?.type === '*';
}

/** Spans of the macro-like identifiers (with their arguments) that broke the parse: a walk with an explicit stack. */
export function macroSpans(root: SyntaxNode): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  const text = root.text;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    // `__extension__ using __rep = unsigned __int128;`: GCC's keyword before an alias, which the grammar takes before a declaration only
    if (n.type === '__extension__' && n.parent?.nextSibling?.text === 'using') {
      spans.push([n.startIndex, n.endIndex]);
      continue;
    }
    const stray = n.childCount === 0 ? strayDirective(n) : undefined;
    if (stray) {
      spans.push(stray);
      continue;
    }
    if (IDENTIFIERS.has(n.type)) {
      // (a node's parent costs a walk from the root in tree-sitter: asked for candidates only, or a deep file is quadratic)
      if (!(n.text === '__attribute__' || macroLike(n.text))) continue;
      // `#undef _GLIBCXX_SIMD_OP_` in an error: a directive's operand is the directive's (blank, the directive would take the next line)
      if (n.previousSibling?.type === 'preproc_directive' || n.parent?.type.startsWith('preproc_')) continue;
      // `inline namespace __cxx11 __attribute__((__abi_tag__ ("cxx11"))) { }`: a GNU attribute where the grammar takes none
      if (n.text === '__attribute__' && n.parent?.type === 'ERROR') spans.push(withBalancedArguments(n, text));
      else if (macroLike(n.text) && typeMacro(n, text)) spans.push([n.endIndex, withBalancedArguments(n, text)[1]]);
      else if (macroLike(n.text) && breaks(n, text)) spans.push(withArguments(n, text));
      continue;
    }
    // a function body that parsed holds no declaration the catalog lists
    if (n.type === 'compound_statement' && !n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return spans;
}
