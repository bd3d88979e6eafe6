/**
 * What `npm run redteam` adds to the hostile-input corpus's workspace (test/helpers/hostile-corpus.ts)
 * so that it holds every hostile case the red-team covers: the rest of the secret-file table (docs/configuration.md), a huge
 * file, an import of a sibling folder reached by ../ (no preview of it may come back), a PHP project
 * (intelephense, under the workspace's symlink loop) and a JS project with dependencies (tsserver's
 * type acquisition must not ask the registry). The extra rows go through every front-end like the
 * corpus's own.
 */
import fs from 'node:fs';
import path from 'node:path';

import { type HostileWorkspace, OUTSIDE_CANARY, type Row, SECRET_CANARY } from '../test/helpers/hostile-corpus.js';

/** docs/configuration.md names not already in the corpus's SECRET_TABLE. */
export const MORE_SECRETS = [
  '.env.local',
  'config/app.env',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.htpasswd',
  'id_dsa',
  'keys/id_ecdsa.pub',
  'db_credentials.json',
  'certs/store.pfx',
  'certs/app.keystore',
  'certs/app.jks',
  'keys/putty.ppk',
  'config/secrets.yaml',
  'secret.json',
];

/** A file over the default maxFileBytes (1 MB). */
const HUGE_BYTES = 3 * 1024 * 1024;

function write(root: string, rel: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

export function extendHostileWorkspace(w: HostileWorkspace): void {
  const { root } = w;
  for (const rel of MORE_SECRETS) write(root, rel, `token=${SECRET_CANARY}\n`);
  const line = `export const filler = 'lorem ipsum dolor sit amet';\n`;
  write(root, 'src/huge.ts', line.repeat(Math.ceil(HUGE_BYTES / line.length)));
  // line 1 imports the sibling's canary file by ../../
  write(root, 'src/uses-sibling.ts', `import { x } from '../../outside/canary';\nexport const y = x();\n`);
  write(root, 'php/composer.json', JSON.stringify({ name: 'red/team', autoload: { 'psr-4': { 'Red\\': 'src/' } } }));
  write(
    root,
    'php/src/Greeter.php',
    '<?php\nnamespace Red;\n\nclass Greeter\n{\n    public function hello(string $n): string\n    {\n        return "hi $n";\n    }\n}\n',
  );
  write(root, 'php/src/Use.php', '<?php\nnamespace Red;\n\nfunction run(): string\n{\n    return (new Greeter())->hello("x");\n}\n');
  write(root, 'js/package.json', JSON.stringify({ name: 'red-js', version: '1.0.0', dependencies: { lodash: '^4.17.21', express: '^4.19.0' } }));
  write(
    root,
    'js/index.js',
    "const _ = require('lodash');\nconst express = require('express');\nfunction handler() {\n  return _.chunk([1, 2, 3], 2);\n}\nmodule.exports = { handler, express };\n",
  );
}

export function extraRows(): Row[] {
  return [
    ...MORE_SECRETS.map((file): Row => ({ what: `secret file ${file} through open_at`, op: 'open_at', input: () => ({ file, line: 1 }), code: 'SECRET_FILE' })),
    { what: '.env.local through get_file_outline', op: 'get_file_outline', input: () => ({ file: '.env.local' }), code: 'SECRET_FILE' },
    { what: 'huge file (3 MB) through open_at', op: 'open_at', input: () => ({ file: 'src/huge.ts', line: 1 }), code: 'LIMIT_EXCEEDED' },
    { what: 'huge file (3 MB) through get_file_outline', op: 'get_file_outline', input: () => ({ file: 'src/huge.ts' }), code: 'LIMIT_EXCEEDED' },
    {
      what: 'definition in a sibling reached by ../../ (no preview)',
      op: 'find_definition',
      input: () => ({ file: 'src/uses-sibling.ts', line: 2, column: 18 }),
      code: 'any',
    },
    { what: 'PHP outline (intelephense)', op: 'get_file_outline', input: () => ({ file: 'php/src/Greeter.php' }), code: 'none' },
    { what: 'PHP references under a symlink loop', op: 'find_references', input: () => ({ symbol: 'Greeter.hello' }), code: 'any' },
    { what: 'JS with dependencies (type acquisition)', op: 'get_file_outline', input: () => ({ file: 'js/index.js' }), code: 'none' },
    { what: 'JS definition of a dependency (lodash)', op: 'find_definition', input: () => ({ file: 'js/index.js', line: 4, column: 12 }), code: 'any' },
    { what: 'search_text for the canary', op: 'search_text', input: () => ({ query: OUTSIDE_CANARY }), code: 'none' },
    { what: 'file tree of the whole root', op: 'get_file_tree', input: () => ({}), code: 'none' },
  ];
}
