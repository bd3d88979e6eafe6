/**
 * The CSS profile: the syntax tier only (no CSS server ships with lspgate). Declarations: a rule
 * set once under each selector of its list (`.btn-primary, .btn:hover { … }` is `.btn-primary` and
 * `.btn:hover`, each spanning the rule), as a tagger lists it, where vscode-css-language-server
 * names one symbol by the whole list: a search for `.btn-primary` then finds the rule by its own
 * name. Rules nest in the at-rule that holds them; `@media`, `@supports` and `@keyframes` blocks
 * are named by their at-rule, and custom properties (`--main`) are variables.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { type DeclaredName, queryDeclarations } from '../query-declarations.js';
import { cssRepair } from './repair.js';

const QUERY = `
(rule_set) @class
[(media_statement) (supports_statement) (keyframes_statement)] @module
(declaration (property_name) @_p (#match? @_p "^--")) @variable
`;

/** Selectors and at-rules are names as written (`.b > c`, `@media (…)`), not identifiers. */
function nameOf(node: SyntaxNode): DeclaredName | DeclaredName[] | undefined {
  switch (node.type) {
    case 'rule_set': {
      const selectors = node.namedChildren.find((c) => c?.type === 'selectors');
      // each selector of the list (the commas between them are unnamed)
      return selectors?.namedChildren.filter((c) => !!c && c.type !== 'comment').map((c) => ({ text: c!.text, at: c!.startIndex, composite: true }));
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
  declarations: queryDeclarations({ query: QUERY, nameOf, repair: cssRepair }),
  tests: { runners: [], directories: ['test', 'tests', 'testdata', 'fixtures'] },
  comment: '/*',
  elision: '{ … }',
  server: {
    name: 'vscode-css-language-server',
    install:
      'npm install -g vscode-langservers-extracted, then add a servers.json entry: {"id":"vscode-css","languages":["css"],"extensions":[".css"],"command":"vscode-css-language-server","args":["--stdio"],"install":"npm install -g vscode-langservers-extracted"}',
  },
});
