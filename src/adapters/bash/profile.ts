/**
 * The shell profile: the syntax tier only (no shell server ships with lspgate). Declarations as
 * bash-language-server lists them: functions (either form) and the variables the script assigns at
 * its top level (`export`ed ones included); a function whose body the grammar could not parse is
 * still found (recovery.ts).
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { queryDeclarations } from '../query-declarations.js';
import { bashRepair, functionInError, headerWords } from './recovery.js';

const QUERY = `
(function_definition) @function
(program (variable_assignment) @variable)
(program (declaration_command (variable_assignment) @variable))
`;

function nameOf(node: SyntaxNode) {
  if (node.type === 'word') return functionInError(node);
  const name = node.childForFieldName('name');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

export const bashProfile = grammarOnlyProfile({
  name: 'shellscript',
  languageIds: ['sh'],
  grammars: { '.sh': 'bash', '.bash': 'bash' },
  // POSIX shells and the Bourne-compatible ones the bash grammar reads
  // zsh too: the bash grammar reads its common syntax (zsh's own forms parse with errors, and what parses is listed)
  interpreters: { sh: '.sh', bash: '.sh', dash: '.sh', ash: '.sh', ksh: '.sh', mksh: '.sh', zsh: '.sh' },
  // the headers error recovery left in pieces join the query's captures (nested with them, named by nameOf)
  declarations: queryDeclarations({ query: QUERY, nameOf, repair: bashRepair, moreCaptures: headerWords }),
  tests: {
    runners: [{ runner: 'bats', description: 'Bats runs *.bats files', files: /\.bats$/ }],
    directories: ['test', 'tests', 'testdata', 'fixtures'],
  },
  comment: '#',
  elision: '{ … }',
  server: {
    name: 'bash-language-server',
    install:
      'npm install -g bash-language-server, then add a servers.json entry: {"id":"bash-language-server","languages":["shellscript"],"extensions":[".sh",".bash"],"command":"bash-language-server","args":["start"],"install":"npm install -g bash-language-server"}',
  },
});
