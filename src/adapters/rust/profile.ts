/**
 * The Rust profile: the syntax tier only (no Rust server ships with lspgate). Declarations as
 * rust-analyzer lists them: structs, unions, enums (variants, fields), traits, `impl` blocks named
 * `impl Trait for Type` / `impl Type` with their functions (methods), modules, functions,
 * constants, statics, type aliases (a trait's associated types, with or without a default) and macros.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { type DeclaredName, queryDeclarations } from '../query-declarations.js';
import { rustRepair } from './repair.js';

const QUERY = `
[(struct_item) (union_item)] @struct
(enum_item) @enum
(enum_variant) @enum_member
(trait_item) @interface
(impl_item) @namespace
(mod_item) @module
[(function_item) (function_signature_item)] @function
[(const_item) (static_item)] @constant
[(type_item) (associated_type)] @type
(macro_definition) @function
(field_declaration) @field
`;

function nameOf(node: SyntaxNode): DeclaredName | undefined {
  if (node.type === 'impl_item') {
    const type = node.childForFieldName('type');
    const trait = node.childForFieldName('trait');
    if (!type) return undefined;
    // named as rust-analyzer names it, from the type and trait nodes (generic arguments and all)
    return { text: trait ? `impl ${trait.text} for ${type.text}` : `impl ${type.text}`, at: (trait ?? type).startIndex, composite: true };
  }
  const name = node.childForFieldName('name');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

/** A function in an `impl` or a trait is a method. */
function kindOf(node: SyntaxNode, capture: string): string {
  if (capture !== 'function' || node.type === 'macro_definition') return capture;
  const owner = node.parent?.type === 'declaration_list' ? node.parent.parent?.type : undefined;
  return owner === 'impl_item' || owner === 'trait_item' ? 'method' : 'function';
}

export const rustProfile = grammarOnlyProfile({
  name: 'rust',
  grammars: { '.rs': 'rust' },
  declarations: queryDeclarations({ query: QUERY, nameOf, kindOf, repair: rustRepair }),
  tests: {
    runners: [
      { runner: 'cargo test', description: 'cargo runs the integration tests under tests/ (unit tests live in #[cfg(test)] modules)', files: /^\w+_test\.rs$/ },
    ],
    directories: ['tests', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  // `impl` is a keyword: no module is named `impl …`, so a namespace named so is an impl block
  rules: { holdsMembers: (c) => c.kind === 'namespace' && c.name.startsWith('impl ') },
  manifests: ['Cargo.toml'],
  comment: '//',
  elision: '{ … }',
  server: {
    name: 'rust-analyzer',
    install:
      'rustup component add rust-analyzer, then add a servers.json entry: {"id":"rust-analyzer","languages":["rust"],"extensions":[".rs"],"command":"rust-analyzer","rootMarkers":["Cargo.toml"],"install":"rustup component add rust-analyzer"}',
  },
});
