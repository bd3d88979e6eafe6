/** The Python language profile (language-profile.ts), served by the python adapter (pyright). */
import path from 'node:path';

import type { LanguageProfile } from '../language-profile.js';
import { PY_DECLARATIONS } from './declarations.js';
import { pyrightScope } from './server-scope.js';
import { pythonDocstringOf } from './signature.js';
import { PY_ALIASES, PY_BODIES, PY_DECORATIONS, PY_NAMED_DECLARATIONS, PY_SCRIPT_ENTRY, PY_TYPE_HEADERS } from './structure.js';
import { PY_COMPLEXITY, PY_IMPORTS, PY_PATTERNS } from './syntax.js';

function builds(pyproject: string | undefined): boolean {
  return !!pyproject && /^\s*\[build-system\]/m.test(pyproject);
}

/** Decorators of the language and its standard library that bind or type a method and register it nowhere. */
const BINDING_DECORATORS = new Set(
  [
    'staticmethod',
    'classmethod',
    'property',
    'abstractmethod',
    'abc.abstractmethod',
    'cached_property',
    'functools.cached_property',
    'override',
    'typing.override',
    'overload',
    'typing.overload',
  ].map((n) => `@${n}`),
);

export const pythonProfile: LanguageProfile = {
  name: 'python',
  languageIds: [],
  grammars: { '.py': 'python', '.pyi': 'python' },
  interpreters: { python: '.py', python2: '.py', python3: '.py', pypy: '.py', pypy3: '.py' },
  syntax: {
    imports: PY_IMPORTS,
    patterns: PY_PATTERNS,
    complexity: PY_COMPLEXITY,
    typeHeaders: PY_TYPE_HEADERS,
    aliases: PY_ALIASES,
    decorations: PY_DECORATIONS,
    bodies: PY_BODIES,
    scriptEntry: PY_SCRIPT_ENTRY,
    declarations: PY_DECLARATIONS,
    namedDeclarations: PY_NAMED_DECLARATIONS,
  },
  tests: {
    // pytest's default discovery: test_*.py and *_test.py, plus conftest.py fixtures.
    runners: [
      {
        runner: 'pytest',
        description: 'pytest collects test_*.py and *_test.py (conftest.py holds fixtures)',
        files: /^(test_.*\.pyi?|.*_test\.pyi?|conftest\.py)$/i,
      },
    ],
    // not `testing/`: numpy.testing and the like are public modules of the package
    directories: ['test', 'tests', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  comments: { line: '#' },
  declarations: {
    bodyDocstring: pythonDocstringOf,
    topLevelGap: 2,
  },
  types: {},
  deadCode: {
    entryPoints: ['main'],
    languageHooks: /^__\w+__$/,
    exportedApi: (s, m) => (builds(m.text('pyproject.toml')) && !s.name.startsWith('_') ? 'pyproject.toml builds a distribution' : undefined),
    bindsOnly: (d) => BINDING_DECORATORS.has(d) || /\.(setter|getter|deleter)$/.test(d),
  },
  project: {
    packageKinds: ['python-distribution', 'python-package'],
    serverScope: pyrightScope,
    // pyright evaluates these conditions for this machine, and binds nothing in the code they rule out
    unreachable: { conditions: ['sys.platform', 'sys.version_info', 'os.name'], hint: 'unreachable' },
    manifests: ['pyproject.toml', 'setup.py', 'setup.cfg'],
    // installed packages, pyright's bundled typeshed stubs, and the standard library (`lib/python3.11/`)
    libraries: { segments: ['site-packages', 'dist-packages', 'typeshed', 'typeshed-fallback'], patterns: [/\/lib\/python\d(?:\.\d+)?\//] },
    manifestPackages(m) {
      const name = /^\[project\][^[]*?^name\s*=\s*["']([^"']+)["']/ms.exec(m.text('pyproject.toml') ?? '')?.[1];
      return name ? [{ name, kind: 'python-distribution', path: 'pyproject.toml' }] : [];
    },
    catalogPackages(_symbols, files) {
      return files
        .filter((f) => path.posix.basename(f) === '__init__.py')
        .sort()
        .map((f) => {
          const dir = path.posix.dirname(f);
          return { name: dir.split('/').join('.'), kind: 'python-package', path: dir };
        });
    },
  },
  chunks: { elision: '...' },
};
