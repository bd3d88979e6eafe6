/**
 * The C++ profile: the syntax tier only (no C++ server ships with lspgate). Declarations as clangd
 * lists them: namespaces, classes, structs, unions and enums with a body (members nested), their
 * fields and member functions, functions (an out-of-line definition named `Class::name`, a method),
 * prototypes, enumerators, typedefs and aliases. A library's macros the grammar cannot expand
 * (`class LIB_EXPORT Foo`, `LIB_BEGIN_NAMESPACE`) are read as blank where the tree shows they broke
 * a declaration (macros.ts), as a tagger ignores them.
 */
import { grammarOnlyProfile } from '../grammar-only.js';
import { queryDeclarations, type DeclaredName } from '../query-declarations.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import { CPP_KEYWORDS, macroSpans } from './macros.js';

const QUERY = `
(namespace_definition name: (_)) @namespace
(class_specifier body: (_)) @class
[(struct_specifier body: (_)) (union_specifier body: (_))] @struct
(enum_specifier body: (_)) @enum
(enumerator) @enum_member
(function_definition) @function
(field_declaration declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator)) (reference_declarator (function_declarator))]) @method
(field_declaration declarator: (field_identifier) @field)
(declaration declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator)) (reference_declarator (function_declarator))]) @function
(type_definition declarator: (type_identifier) @type)
(alias_declaration) @type
`;

/** The name a declarator declares: through pointers, references and function declarators. */
function declared(n: SyntaxNode | null): SyntaxNode | undefined {
  let x = n;
  while (x && (x.type === 'function_declarator' || x.type === 'pointer_declarator' || x.type === 'reference_declarator' || x.type === 'array_declarator')) x = x.childForFieldName('declarator');
  return x ?? undefined;
}

/** Names clangd gives as written that are more than one identifier: `A::b`, `operator()`, `~A`, `pair<A, B>`. */
const COMPOSITE_NAMES = new Set(['qualified_identifier', 'operator_name', 'destructor_name', 'template_type', 'template_function', 'operator_cast']);

function nameOf(node: SyntaxNode, capture: string): DeclaredName | undefined {
  if (capture === 'field' || (capture === 'type' && node.type === 'type_identifier')) return { text: node.text, at: node.startIndex };
  const name = node.type === 'function_definition' || node.type === 'field_declaration' || node.type === 'declaration' ? declared(node.childForFieldName('declarator')) : node.childForFieldName('name');
  // a name error recovery made (a MISSING `::` between a return type and the name) names nothing
  if (!name || name.hasError) return undefined;
  return { text: name.text, at: name.startIndex, composite: COMPOSITE_NAMES.has(name.type) };
}

/** A function defined in a class body, or out of line as `Class::name`, is a method. */
function kindOf(node: SyntaxNode, capture: string): string {
  if (capture !== 'function') return capture;
  if (node.parent?.type === 'field_declaration_list') return 'method';
  const name = declared(node.childForFieldName('declarator'));
  return name?.type === 'qualified_identifier' ? 'method' : 'function';
}

export const cppProfile = grammarOnlyProfile({
  name: 'cpp',
  languageIds: ['c++'],
  grammars: { '.cpp': 'cpp', '.cc': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp', '.h': 'cpp' },
  declarations: queryDeclarations({ query: QUERY, nameOf, kindOf, keywords: CPP_KEYWORDS, repair: { grammar: 'cpp', spans: macroSpans } }),
  tests: {
    runners: [{ runner: 'ctest', description: 'GoogleTest and Catch2 suites are usually *_test.cpp / *_tests.cpp / test_*.cpp', files: /^(test_\w+|\w+_tests?)\.(cpp|cc|cxx)$/ }],
    directories: ['test', 'tests', 'testdata', 'fixtures'],
  },
  // Make, CMake and Meson
  manifests: ['Makefile', 'CMakeLists.txt', 'meson.build'],
  comment: '//',
  elision: '{ … }',
  server: { name: 'clangd', install: 'install clangd (apt-get install clangd, brew install llvm) and add a servers.json entry: {"id":"clangd","languages":["cpp"],"extensions":[".cpp",".cc",".cxx",".hpp",".hh",".hxx",".h"],"command":"clangd","install":"apt-get install clangd"}' },
});
