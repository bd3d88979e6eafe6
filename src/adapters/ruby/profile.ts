/**
 * The Ruby profile: the syntax tier only (no Ruby server ships with lspgate). Declarations as
 * ruby-lsp lists them: modules and classes (nested), methods (`def self.x` named `self.x`),
 * constants and `attr_reader` / `attr_writer` / `attr_accessor` attributes; a `def` at the top
 * level is a function. `alias new old`, `alias :new :old` and `alias_method :new, :old` are methods named `new`.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { queryDeclarations } from '../query-declarations.js';

const QUERY = `
(module) @module
(class) @class
(method) @method
(singleton_method) @method
(assignment left: (constant)) @constant
(call method: (identifier) @_attr arguments: (argument_list (simple_symbol) @field) (#match? @_attr "^attr_(reader|writer|accessor)$"))
(alias name: [(identifier) (constant) (operator) (setter) (simple_symbol)]) @method
(call method: (identifier) @_alias arguments: (argument_list . [(simple_symbol) (string)]) (#eq? @_alias "alias_method")) @method
`;

function nameOf(node: SyntaxNode, capture: string): { text: string; at: number } | undefined {
  if (capture === 'field') return { text: node.text.replace(/^:/, ''), at: node.startIndex + 1 };
  if (node.type === 'assignment') {
    const left = node.childForFieldName('left');
    return left ? { text: left.text, at: left.startIndex } : undefined;
  }
  // `alias_method :new, :old` / `alias_method "new", "old"`: a method of the class, named by its first argument
  if (node.type === 'call') {
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    if (!first) return undefined;
    if (first.type === 'simple_symbol') return { text: first.text.slice(1), at: first.startIndex + 1 };
    const content = first.namedChildren.find((c) => c?.type === 'string_content');
    return content && first.namedChildCount === 1 ? { text: content.text, at: content.startIndex } : undefined;
  }
  // `alias new old` names the method `new` (the `name` field)
  const name = node.childForFieldName('name');
  if (!name) return undefined;
  // `alias :finished? :finished` names the method `finished?`
  if (name.type === 'simple_symbol') return { text: name.text.slice(1), at: name.startIndex + 1 };
  const object = node.type === 'singleton_method' ? node.childForFieldName('object') : null;
  return { text: object ? `${object.text}.${name.text}` : name.text, at: name.startIndex };
}

function kindOf(node: SyntaxNode, capture: string): string {
  return capture === 'method' && node.type === 'method' && node.parent?.type === 'program' ? 'function' : capture;
}

export const rubyProfile = grammarOnlyProfile({
  name: 'ruby',
  grammars: { '.rb': 'ruby', '.rake': 'ruby', '.gemspec': 'ruby' },
  declarations: queryDeclarations({ query: QUERY, nameOf, kindOf }),
  tests: {
    runners: [
      { runner: 'rspec', description: 'RSpec runs spec/**/*_spec.rb', files: /_spec\.rb$/ },
      { runner: 'minitest', description: 'Minitest runs test/**/*_test.rb and test_*.rb', files: /^(test_\w+|\w+_test)\.rb$/ },
    ],
    directories: ['test', 'tests', 'spec', 'testdata', 'fixtures'],
    functionNames: /^test_/,
  },
  comment: '#',
  elision: '…',
  server: {
    name: 'ruby-lsp',
    install:
      'gem install ruby-lsp, then add a servers.json entry: {"id":"ruby-lsp","languages":["ruby"],"extensions":[".rb"],"command":"ruby-lsp","install":"gem install ruby-lsp"}',
  },
});
