/** The Python language profile (language-profile.ts), served by the python adapter (pyright). */
import path from 'node:path';
import type { LanguageProfile } from '../language-profile.js';
import { withoutBrackets } from '../header-text.js';
import { pythonDocstringOf } from './signature.js';
import { PY_COMPLEXITY, PY_IMPORTS, PY_PATTERNS } from './syntax.js';
import { PY_DECLARATIONS } from './declarations.js';

/** A class's parenthesised bases (not `metaclass=` or other keywords, not subscripts); a dotted name by its last part. */
function pythonBases(header: string): string[] {
  const names = new Set<string>();
  const m = /\bclass\s+\w+\s*\(([^)]*)\)/.exec(withoutBrackets(header, '[', ']'));
  for (const part of m?.[1]?.split(',') ?? []) {
    const base = /^\s*([\w.]+)\s*$/.exec(part)?.[1];
    if (base) names.add(base.split('.').pop()!);
  }
  return [...names];
}

function builds(pyproject: string | undefined): boolean {
  return !!pyproject && /^\s*\[build-system\]/m.test(pyproject);
}

export const pythonProfile: LanguageProfile = {
  name: 'python',
  languageIds: [],
  grammars: { '.py': 'python', '.pyi': 'python' },
  syntax: { imports: PY_IMPORTS, patterns: PY_PATTERNS, complexity: PY_COMPLEXITY, declarations: PY_DECLARATIONS },
  tests: {
    // pytest's default discovery: test_*.py and *_test.py, plus conftest.py fixtures.
    runners: [{ runner: 'pytest', description: 'pytest collects test_*.py and *_test.py (conftest.py holds fixtures)', files: /^(test_.*\.pyi?|.*_test\.pyi?|conftest\.py)$/i }],
    // not `testing/`: numpy.testing and the like are public modules of the package
    directories: ['test', 'tests', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  comments: { line: '#', leading: /^\s*(@|#)/ },
  declarations: {
    bodyDocstring: pythonDocstringOf,
    decoratorAt: (line) => /^\s*(@[\w.]+)/.exec(line)?.[1],
  },
  types: { baseNames: pythonBases },
  deadCode: {
    entryPoints: ['main'],
    languageHooks: /^__\w+__$/,
    exportedApi: (s, m) => (builds(m.text('pyproject.toml')) && !s.name.startsWith('_') ? 'pyproject.toml builds a distribution' : undefined),
  },
  project: {
    packageKinds: ['python-distribution', 'python-package'],
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
    scriptEntry(text) {
      const i = text.split('\n').findIndex((l) => /^if\s+__name__\s*==\s*["']__main__["']\s*:/.test(l));
      return i >= 0 ? { line: i + 1, reason: '`if __name__ == "__main__":` runs it as a script' } : undefined;
    },
  },
  chunks: { blocks: 'indentation' },
};
