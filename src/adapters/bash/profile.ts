/**
 * The shell profile: the syntax tier only (no shell server ships with lspgate). Declarations as
 * bash-language-server lists them: functions (either form) and the variables the script assigns at
 * its top level (`export`ed ones included).
 */
import { grammarOnlyProfile } from '../grammar-only.js';
import { queryDeclarations } from '../query-declarations.js';

const QUERY = `
(function_definition) @function
(program (variable_assignment) @variable)
(program (declaration_command (variable_assignment) @variable))
`;

export const bashProfile = grammarOnlyProfile({
  name: 'shellscript',
  languageIds: ['sh'],
  grammars: { '.sh': 'bash', '.bash': 'bash' },
  // POSIX shells and the Bourne-compatible ones the bash grammar reads
  interpreters: { sh: '.sh', bash: '.sh', dash: '.sh', ash: '.sh', ksh: '.sh', mksh: '.sh' },
  declarations: queryDeclarations({ query: QUERY }),
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
