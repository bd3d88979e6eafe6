/**
 * The real code bench/symbol-edits.ts edits, one entry per language: where a copy comes from (code
 * that is not lspgate's: a package's TypeScript sources from node_modules, a GOROOT package in a module
 * of its own, Python standard library modules), how its compile check counts errors (tsc --noEmit, go
 * build + go vet, py_compile of every file), and the small declarations the inserts add. PHP needs
 * `php -l` on PATH and is skipped (said so) without it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { NEWEST_GO } from './go-toolchain.js';
import { prepareCorpus } from './truth/corpora.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CompileCount {
  errors: number;
  /** The first error lines, to show what broke. */
  sample: string[];
}

export interface BenchLang {
  name: string;
  /** Why the language cannot run here (a missing tool), or undefined. */
  unavailable(): string | undefined;
  /** Copies the code into `dir` and answers the source files (relative) the bench may edit. */
  prepare(dir: string): string[];
  /** The breaking cases' code, when it differs (modules that call each other across files); else `prepare`'s. */
  breakingPrepare?(dir: string): string[];
  compile(root: string, files: string[]): CompileCount;
  /** Kinds of the catalog whose declarations are edited. */
  kinds: Set<string>;
  /** A line that ends a declaration's header: the comment of a changed body goes after it. */
  opener: RegExp;
  comment: string;
  /** A new small declaration beside a symbol whose parent is of kind `parent` (a method in a class, a method signature in an interface). */
  declaration(name: string, n: number, parent: string | undefined): string;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 600_000 });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}

function copyFiles(from: string, to: string, names: string[]): void {
  fs.mkdirSync(to, { recursive: true });
  for (const n of names) {
    fs.mkdirSync(path.dirname(path.join(to, n)), { recursive: true });
    fs.copyFileSync(path.join(from, n), path.join(to, n));
  }
}

function listFiles(dir: string, keep: (rel: string) => boolean, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, keep, r));
    else if (e.isFile() && keep(r)) out.push(r);
  }
  return out.sort();
}

function which(name: string, extra: string[] = []): string | undefined {
  for (const d of [...(process.env.PATH ?? '').split(path.delimiter), ...extra]) {
    const f = path.join(d, name);
    if (d && fs.existsSync(f)) return f;
  }
  return undefined;
}

const GO_DIRS = [path.dirname(NEWEST_GO), '/usr/local/go/bin'];
// its own build settings are not shipped: the loosest that type-checks it with no error (0 before any edit)
const TS_CONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    strict: false,
    noEmit: true,
    lib: ['esnext', 'dom'],
    types: ['node'],
    skipLibCheck: true,
  },
  include: ['src/**/*.ts'],
};
const GO_PACKAGES = ['text/template/parse', 'net/url', 'encoding/csv', 'text/tabwriter', 'container/list'];

export const LANGS: BenchLang[] = [
  {
    name: 'typescript',
    unavailable: () => (fs.existsSync(path.join(REPO, 'node_modules/chevrotain/src/api.ts')) ? undefined : 'node_modules/chevrotain/src is missing'),
    prepare(dir) {
      // chevrotain ships its TypeScript sources; its @chevrotain/* dependencies resolve through a node_modules link
      const src = path.join(REPO, 'node_modules/chevrotain/src');
      const files = listFiles(src, (r) => r.endsWith('.ts') && !r.endsWith('.d.ts'));
      copyFiles(src, path.join(dir, 'src'), files);
      fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(dir, 'node_modules'));
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TS_CONFIG, null, 2));
      return files.map((f) => `src/${f}`);
    },
    compile(root) {
      const out = run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit'], root);
      const lines = out.split('\n').filter((l) => /error TS\d+/.test(l));
      return { errors: lines.length, sample: lines.slice(0, 3) };
    },
    kinds: new Set(['function', 'method', 'constant']),
    opener: /\{\s*$/,
    comment: '// lspgate-bench: body replaced',
    declaration: (name, n, parent) =>
      parent === 'interface'
        ? `${name} (): number`
        : parent === 'class'
          ? `${name} (): number {\n  return ${n}\n}`
          : `export function ${name} (): number {\n  return ${n}\n}`,
  },
  {
    name: 'go',
    unavailable: () => (which('go', GO_DIRS) && which('gopls', GO_DIRS) ? undefined : 'go or gopls is not installed'),
    prepare(dir) {
      // packages that import only the public standard library: built as one module of their own
      const [goroot, version] = run(which('go', GO_DIRS)!, ['env', 'GOROOT', 'GOVERSION'], '/').trim().split('\n');
      const files: string[] = [];
      for (const pkg of GO_PACKAGES) {
        const src = path.join(goroot!, 'src', pkg);
        const own = listFiles(src, (r) => r.endsWith('.go') && !r.endsWith('_test.go') && !r.includes('/'));
        copyFiles(src, path.join(dir, path.basename(pkg)), own);
        files.push(...own.map((f) => `${path.basename(pkg)}/${f}`));
      }
      // the copied standard library may use its own release's language features
      fs.writeFileSync(path.join(dir, 'go.mod'), `module example.com/stdcopy\n\ngo ${/^go(1\.\d+)/.exec(version ?? '')?.[1] ?? '1.23'}\n`);
      return files;
    },
    breakingPrepare(dir) {
      // go/token, go/ast, go/parser, go/printer… in one module (the truth corpus): exported functions called from other packages
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      const root = prepareCorpus('go', path.dirname(dir))!.root;
      fs.renameSync(root, dir);
      return listFiles(dir, (r) => r.endsWith('.go'));
    },
    compile(root) {
      const go = which('go', GO_DIRS)!;
      const env = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOCACHE: path.join(path.dirname(root), 'gocache') };
      const out = run(go, ['build', './...'], root, env) + run(go, ['vet', './...'], root, env);
      const lines = out.split('\n').filter((l) => /\.go:\d+:\d+:/.test(l));
      return { errors: lines.length, sample: lines.slice(0, 3) };
    },
    kinds: new Set(['function', 'method']),
    opener: /\{\s*$/,
    comment: '// lspgate-bench: body replaced',
    declaration: (name, n, parent) => (parent === 'interface' ? `${name}() int` : `func ${name}() int {\n\treturn ${n}\n}`),
  },
  {
    name: 'python',
    unavailable: () => (fs.existsSync(pythonLib()) ? undefined : 'no Python standard library under /usr/lib/python3*'),
    prepare(dir) {
      const files = ['textwrap.py', 'shlex.py', 'fractions.py', 'difflib.py', 'calendar.py', 'ftplib.py', 'smtplib.py', 'pprint.py'];
      copyFiles(pythonLib(), path.join(dir, 'stdlib_copy'), files);
      fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "stdlib-copy"\nversion = "0"\n');
      return files.map((f) => `stdlib_copy/${f}`);
    },
    breakingPrepare(dir) {
      // the standard library's email package: its modules call each other's functions (a changed signature has
      // callers in other files). Renamed mailcopy: pyright resolves a standard library module's name to its
      // typeshed stub before a local package, so `from email.utils import …` would not reach the copy.
      const files = listFiles(path.join(pythonLib(), 'email'), (r) => r.endsWith('.py'));
      copyFiles(path.join(pythonLib(), 'email'), path.join(dir, 'mailcopy'), files);
      for (const f of files) {
        const file = path.join(dir, 'mailcopy', f);
        const text = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(
          file,
          text
            .replace(/\bfrom email\b/g, 'from mailcopy')
            .replace(/\bimport email\b(?!\.)/g, 'import mailcopy as email')
            .replace(/\bimport email\./g, 'import mailcopy.')
            .replace(/(?<![\w.])email\.(?=[a-z_])/g, 'mailcopy.'),
        );
      }
      fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "email-copy"\nversion = "0"\n');
      return files.map((f) => `mailcopy/${f}`);
    },
    compile(root, files) {
      const script =
        'import sys, py_compile\nbad = 0\nfor f in sys.argv[1:]:\n    try:\n        py_compile.compile(f, cfile="/dev/null", doraise=True)\n    except py_compile.PyCompileError as e:\n        bad += 1\n        print("ERROR", e.msg.strip().splitlines()[-1])\n';
      const out = run('python3', ['-c', script, ...files], root);
      const lines = out.split('\n').filter((l) => l.startsWith('ERROR'));
      return { errors: lines.length, sample: lines.slice(0, 3) };
    },
    kinds: new Set(['function', 'method']),
    opener: /:\s*$/,
    comment: '# lspgate-bench: body replaced',
    declaration: (name, n, parent) => (parent === 'class' ? `def ${name}(self):\n    return ${n}` : `def ${name}():\n    return ${n}`),
  },
  {
    name: 'php',
    unavailable: () =>
      !which('php')
        ? 'php is not installed (php -l is the compile check): skipped'
        : fs.existsSync(MONOLOG)
          ? undefined
          : `no PHP sources at ${MONOLOG} (Debian's php-monolog)`,
    prepare(dir) {
      // Monolog's core, formatters and processors as Debian ships them (php-monolog)
      const files = listFiles(MONOLOG, (r) => r.endsWith('.php') && (!r.includes('/') || r.startsWith('Formatter/') || r.startsWith('Processor/')));
      copyFiles(MONOLOG, path.join(dir, 'src'), files);
      fs.writeFileSync(path.join(dir, 'composer.json'), '{ "name": "bench/monolog-copy", "autoload": { "psr-4": { "Monolog\\\\": "src/" } } }\n');
      return files.map((f) => `src/${f}`);
    },
    compile(root, files) {
      // php -l: the parse check, one file at a time (it reads only the first file it is given)
      const lines = files.map((f) => run('php', ['-l', f], root)).filter((out) => !out.includes('No syntax errors detected'));
      return { errors: lines.length, sample: lines.slice(0, 3).map((l) => l.trim().split('\n')[0]!) };
    },
    kinds: new Set(['function', 'method']),
    opener: /\{\s*$/,
    comment: '// lspgate-bench: body replaced',
    declaration: (name, n, parent) => (parent === 'class' ? `public function ${name}() {\n    return ${n};\n}` : `function ${name}() {\n    return ${n};\n}`),
  },
];

const MONOLOG = '/usr/share/php/Monolog';

function pythonLib(): string {
  const dirs = fs.existsSync('/usr/lib')
    ? fs
        .readdirSync('/usr/lib')
        .filter((d) => /^python3\.\d+$/.test(d))
        .sort()
    : [];
  return path.join('/usr/lib', dirs.at(-1) ?? 'python3', 'textwrap.py').replace(/textwrap\.py$/, '');
}
