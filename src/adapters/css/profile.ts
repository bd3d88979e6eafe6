/**
 * The CSS profile: the syntax tier only (no CSS server ships with lspgate). Declarations as
 * vscode-css-language-server lists them: each rule set named by its selectors (nested in the
 * at-rule that holds it), `@media`, `@supports` and `@keyframes` blocks named by their at-rule, and
 * custom properties (`--main`).
 */
import { grammarOnlyProfile } from '../grammar-only.js';
import { queryDeclarations, type DeclaredName } from '../query-declarations.js';
import type { SyntaxNode } from '../../syntax/syntax.js';

const QUERY = `
(rule_set) @class
[(media_statement) (supports_statement) (keyframes_statement)] @module
(declaration (property_name) @_p (#match? @_p "^--")) @variable
`;

/** Selectors and at-rules are names as the CSS server writes them (`.a, .b > c`, `@media (…)`), not identifiers. */
function nameOf(node: SyntaxNode): DeclaredName | undefined {
  switch (node.type) {
    case 'rule_set': {
      const selectors = node.namedChildren.find((c) => c?.type === 'selectors');
      return selectors ? { text: selectors.text, at: selectors.startIndex, composite: true } : undefined;
    }
    case 'declaration': {
      const p = node.namedChildren.find((c) => c?.type === 'property_name');
      return p ? { text: p.text, at: p.startIndex } : undefined;
    }
    default: {
      // `@media (max-width: 600px)`: the at-rule up to its block
      const block = node.namedChildren.find((c) => c?.type === 'block' || c?.type === 'keyframe_block_list');
      const end = block ? block.startIndex - node.startIndex : node.text.length;
      return { text: node.text.slice(0, end).trim(), at: node.startIndex, composite: true };
    }
  }
}

export const cssProfile = grammarOnlyProfile({
  name: 'css',
  grammars: { '.css': 'css' },
  declarations: queryDeclarations({ query: QUERY, nameOf }),
  tests: { runners: [], directories: ['test', 'tests', 'testdata', 'fixtures'] },
  comment: '/*',
  elision: '{ … }',
  server: { name: 'vscode-css-language-server', install: 'npm install -g vscode-langservers-extracted, then add a servers.json entry: {"id":"vscode-css","languages":["css"],"extensions":[".css"],"command":"vscode-css-language-server","args":["--stdio"],"install":"npm install -g vscode-langservers-extracted"}' },
});
