/**
 * The C++ profile: the syntax tier only (no C++ server ships with lspgate). Declarations as clangd
 * lists them: namespaces, classes, structs, unions and enums with a body (members nested), their
 * fields and member functions, functions (an out-of-line definition named `Class::name`, a method),
 * prototypes, enumerators, typedefs and aliases. A library's macros the grammar cannot expand
 * (`class LIB_EXPORT Foo`, `LIB_BEGIN_NAMESPACE`) are read as blank where the tree shows they broke
 * a declaration (macros.ts), as a tagger ignores them.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { type DeclaredName, queryDeclarations } from '../query-declarations.js';
import { CPP_KEYWORDS, macroSpans } from './macros.js';

const QUERY = `
(namespace_definition name: (_)) @namespace
(class_specifier body: (_)) @class
[(struct_specifier body: (_)) (union_specifier body: (_))] @struct
(enum_specifier body: (_)) @enum
(enumerator) @enum_member
(function_definition) @function
(field_declaration declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator)) (reference_declarator (function_declarator))]) @method
(field_declaration declarator: [(field_identifier) (pointer_declarator) (reference_declarator) (array_declarator) (function_declarator declarator: (parenthesized_declarator))] @field)
(declaration declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator)) (reference_declarator (function_declarator)) (operator_cast)]) @function
(declaration declarator: (init_declarator declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator)) (reference_declarator (function_declarator))])) @function
(field_declaration_list (template_declaration (declaration declarator: (init_declarator declarator: (identifier) @field))))
(declaration declarator: [(qualified_identifier) (init_declarator declarator: (qualified_identifier))]) @static_member
(type_definition declarator: (_) @type)
(alias_declaration) @type
`;

// (`void end(auto&) = delete;` among declarations reads as an init declarator around the function's)
const WRAPPERS = new Set([
  'function_declarator',
  'pointer_declarator',
  'reference_declarator',
  'array_declarator',
  'parenthesized_declarator',
  'init_declarator',
]);

/** The declarator a wrapper wraps: its `declarator` field, or (a reference's `& x`, a parenthesized `(*x)`, which have no field) its last named child. */
function wrapped(x: SyntaxNode): SyntaxNode | null {
  return (
    x.childForFieldName('declarator') ??
    (x.type === 'reference_declarator' || x.type === 'parenthesized_declarator'
      ? (x.namedChildren.filter((c) => c?.type !== 'attribute_declaration').pop() ?? null)
      : null)
  );
}

/**
 * A declaration's declarator: its `declarator` field past a calling convention the grammar puts in that field
 * too (`extern "C" __declspec(dllimport) int __stdcall Fn(int);` declares `Fn`, not `__stdcall`).
 */
function declaratorOf(node: SyntaxNode): SyntaxNode | null {
  const first = node.childForFieldName('declarator');
  if (first?.type !== 'ms_call_modifier') return first;
  return node.childrenForFieldName('declarator').find((d) => d && d.type !== 'ms_call_modifier') ?? null;
}

/** The name a declarator declares: through pointers, references, arrays, parentheses and function declarators. */
function declared(n: SyntaxNode | null): SyntaxNode | undefined {
  let x = n;
  while (x && WRAPPERS.has(x.type)) x = wrapped(x);
  return x ?? undefined;
}

/**
 * The name a field or typedef declarator declares (`_Tp* _M_p`, `int _M_a[4]`, `void (*_M_fn)()`,
 * `typedef _Node* _Link_type`); undefined when it declares a function (`void* f();` is a method).
 */
function declaredData(n: SyntaxNode): SyntaxNode | undefined {
  let x: SyntaxNode | null = n;
  while (x && WRAPPERS.has(x.type)) {
    if (x.type === 'function_declarator' && x.childForFieldName('declarator')?.type !== 'parenthesized_declarator') return undefined;
    x = wrapped(x);
  }
  return x ?? undefined;
}

/** Whether a node stands in a function's body (a statement block), where nothing is a declaration the outline lists. */
function inBody(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'compound_statement') return true;
    if (p.type === 'field_declaration_list' || p.type === 'declaration_list' || p.type === 'translation_unit') return false;
  }
  return false;
}

/** Where a qualified name's own name starts (`Outer<T>::\n  name` is tagged on the line of `name`). */
function nameStart(name: SyntaxNode): number {
  let x = name;
  while (x.type === 'qualified_identifier') {
    const inner = x.childForFieldName('name');
    if (!inner) break;
    x = inner;
  }
  return x.startIndex;
}

/** The name of the class whose body holds a node (through a template declaration and conditional groups), if any. */
function enclosingClassName(node: SyntaxNode): string | undefined {
  let p = node.parent;
  while (p && (p.type === 'template_declaration' || p.type.startsWith('preproc_'))) p = p.parent;
  let name = p?.type === 'field_declaration_list' ? p.parent?.childForFieldName('name') : undefined;
  // `class locale::_Impl`, `struct hash<T>`: the class's own name
  while (name && (name.type === 'qualified_identifier' || name.type === 'template_type')) name = name.childForFieldName('name');
  return name?.text;
}

/**
 * Whether a prototype is a macro's call (`__glibcxx_class_requires(_Tp, _Concept)` in a class body, `LIB_DECLARE(Foo);`
 * among declarations): a function declared without a return type, which only a class's own constructor
 * (named as the class) and a deduction guide (`vector(It, It) -> vector<T>;`) are — C++ has no implicit int.
 */
function isMacroCall(node: SyntaxNode): boolean {
  if (node.type !== 'declaration' && node.type !== 'field_declaration') return false;
  if (node.childForFieldName('type')) return false;
  const declarator = node.childForFieldName('declarator');
  if (declarator?.type !== 'function_declarator' || declarator.namedChildren.some((c) => c?.type === 'trailing_return_type')) return false;
  const name = declarator.childForFieldName('declarator');
  if (!name || (name.type !== 'identifier' && name.type !== 'field_identifier')) return false;
  return name.text !== enclosingClassName(node);
}

/** Names clangd gives as written that are more than one identifier: `A::b`, `operator()`, `~A`, `pair<A, B>`. */
const COMPOSITE_NAMES = new Set(['qualified_identifier', 'operator_name', 'destructor_name', 'template_type', 'template_function', 'operator_cast']);

function nameOf(node: SyntaxNode, capture: string): DeclaredName | undefined {
  // `enum : std::uint8_t { … }` is unnamed: the grammar reads its `:` as an error and its base type as the name
  if (node.type === 'enum_specifier') {
    const name = node.childForFieldName('name');
    if (name && /(?<!:):(?!:)/.test(node.text.slice(0, name.startIndex - node.startIndex))) return undefined;
  }
  // `[[nodiscard]] friend constexpr R operator<=>(…)`: error recovery read the keyword as a type, the return type as a field
  const type = capture === 'field' ? node.parent?.childForFieldName('type') : undefined;
  if (type?.type === 'type_identifier' && CPP_KEYWORDS.has(type.text)) return undefined;
  if (capture === 'field' || (capture === 'type' && node.type !== 'alias_declaration')) {
    const data = declaredData(node);
    return data && (data.type === 'field_identifier' || data.type === 'type_identifier' || data.type === 'identifier')
      ? { text: data.text, at: data.startIndex }
      : undefined;
  }
  // `template<typename _CharT> locale::id ctype<_CharT>::id;`: a static data member defined out of line, named as written
  if (capture === 'static_member') {
    // (a friend names a function declared elsewhere; a declaration error recovery made is no definition)
    if (inBody(node) || node.hasError || node.parent?.type === 'friend_declaration') return undefined;
    const d = node.childForFieldName('declarator')!;
    const name = d.type === 'init_declarator' ? d.childForFieldName('declarator')! : d;
    // `_GLIBCXX_BEGIN_NAMESPACE_VERSION\n using ::abs;` reads as a declaration of `using::abs`: no scope is a keyword
    if (name.hasError || name.text.split('::').some((p) => CPP_KEYWORDS.has(p.trim()))) return undefined;
    return {
      text: name.text
        .split('::')
        .map((p) => p.trim())
        .join('::'),
      at: nameStart(name),
      composite: true,
    };
  }
  // `unique_lock<mutex> __lock(_M_mutex);` in a body reads as a function's prototype, libstdc++'s `__catch(...) { }` as a
  // function's definition: C++ defines no function in a body, and clangd lists no local
  // (a template is never local: one in a "body" shows error recovery made a body of declarations a macro broke)
  if ((node.type === 'declaration' || node.type === 'function_definition') && node.parent?.type !== 'template_declaration' && inBody(node)) return undefined;
  // `friend bool operator==(const A&, const A&);` names a function declared elsewhere: clangd lists no friend, ctags no friend prototype
  if (node.type === 'declaration' && node.parent?.type === 'friend_declaration') return undefined;
  if (isMacroCall(node)) return undefined;
  // `void (*_M_fn)(int);` declares a pointer to a function: a field (the field capture), no function
  const data = node.type === 'field_declaration' || node.type === 'declaration' ? declaredData(declaratorOf(node)!) : undefined;
  if (data?.type === 'field_identifier' || data?.type === 'identifier') return undefined;
  const name =
    node.type === 'function_definition' || node.type === 'field_declaration' || node.type === 'declaration'
      ? declared(declaratorOf(node))
      : node.childForFieldName('name');
  // a name error recovery made (a MISSING `::` between a return type and the name) names nothing
  if (!name || name.hasError) return undefined;
  // `operator bool() const`: the conversion's name is `operator bool`, not its whole declarator
  if (name.type === 'operator_cast') {
    let d = name.childForFieldName('declarator');
    while (d && d.type !== 'abstract_function_declarator') d = d.childForFieldName('declarator') ?? d.namedChildren[d.namedChildCount - 1] ?? null;
    return { text: name.text.slice(0, (d ? d.startIndex : name.endIndex) - name.startIndex).trim(), at: name.startIndex, composite: true };
  }
  // `Outer<T>::\n  name` is one name: no space around its `::`
  const text =
    name.type === 'qualified_identifier'
      ? name.text
          .split('::')
          .map((p) => p.trim())
          .join('::')
      : name.text;
  return { text, at: nameStart(name), composite: COMPOSITE_NAMES.has(name.type) };
}

/** A function defined in a class body, or out of line as `Class::name`, is a method. */
function kindOf(node: SyntaxNode, capture: string): string {
  if (capture === 'static_member') return 'field';
  if (capture !== 'function') return capture;
  if (node.parent?.type === 'field_declaration_list' || node.parent?.parent?.type === 'field_declaration_list') return 'method';
  const name = declared(node.childForFieldName('declarator'));
  return name?.type === 'qualified_identifier' ? 'method' : 'function';
}

export const cppProfile = grammarOnlyProfile({
  name: 'cpp',
  languageIds: ['c++'],
  grammars: { '.cpp': 'cpp', '.cc': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp', '.h': 'cpp' },
  declarations: queryDeclarations({ query: QUERY, nameOf, kindOf, keywords: CPP_KEYWORDS, repair: { grammar: 'cpp', spans: macroSpans } }),
  tests: {
    runners: [
      {
        runner: 'ctest',
        description: 'GoogleTest and Catch2 suites are usually *_test.cpp / *_tests.cpp / test_*.cpp',
        files: /^(test_\w+|\w+_tests?)\.(cpp|cc|cxx)$/,
      },
    ],
    directories: ['test', 'tests', 'testdata', 'fixtures'],
  },
  // Make, CMake and Meson
  manifests: ['Makefile', 'CMakeLists.txt', 'meson.build'],
  comment: '//',
  elision: '{ … }',
  server: {
    name: 'clangd',
    install:
      'install clangd (apt-get install clangd, brew install llvm) and add a servers.json entry: {"id":"clangd","languages":["cpp"],"extensions":[".cpp",".cc",".cxx",".hpp",".hh",".hxx",".h"],"command":"clangd","install":"apt-get install clangd"}',
  },
});
