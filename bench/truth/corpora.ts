/**
 * The real code `npm run truth` checks lspgate on, copied into a work directory (never into the
 * checkout), each a git repository of its own with one commit:
 *   ts:  zod's v4 sources from node_modules (tests and locales left out), plus picomatch's
 *        CommonJS files under vendor-js/ (a TypeScript project that also holds .js files) and a
 *        planted type error at the end of core/util.ts;
 *   go:  GOROOT's go/token … go/format copied into a module of their own (imports rewritten), plus
 *        `mime`, whose type_windows.go / type_plan9.go / … are excluded by build constraints;
 *   py:  the standard library's json and email packages, a planted undefined name at the end of
 *        email/utils.py, and a pyrightconfig.json that leaves email/mime out of the project;
 *   php: Laravel's Illuminate Support, Collections and Contracts from Debian's php-illuminate-*
 *        packages (`apt-get download` + `dpkg -x`, never installed; skipped when unavailable).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { NEWEST_GO, NEWEST_GOROOT_SRC, newestGoLine } from '../go-toolchain.js';
import { packageRoot } from '../raw-client.js';

export type Lang = 'ts' | 'go' | 'py' | 'php';

export interface Corpus {
  lang: Lang;
  root: string;
  /** The file with a planted error and the line it is on (ts, py). */
  planted?: { file: string; line: number; name: string };
}

export const GOROOT_SRC = process.env.GOROOT_SRC ?? NEWEST_GOROOT_SRC;
export const GO_BIN = process.env.LSPGATE_GO ?? NEWEST_GO;
export const GO_MODULE = 'lspgate.test/gostd';
// the internal package go/scanner and go/parser import is release-specific (typeparams up to Go 1.25,
// scannerhooks from 1.26): whichever this GOROOT has is copied
const GO_PKGS = [
  'go/token',
  'go/scanner',
  'go/ast',
  'go/build/constraint',
  'go/internal/typeparams',
  'go/internal/scannerhooks',
  'go/parser',
  'go/doc/comment',
  'go/printer',
  'go/format',
  'mime',
].filter((p) => fs.existsSync(path.join(GOROOT_SRC, p)));

export const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOFLAGS: '-mod=mod',
  PATH: `${path.dirname(GO_BIN)}${path.delimiter}${process.env.PATH ?? ''}`,
});

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=truth', '-c', 'user.email=truth@lspgate.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: root,
    stdio: 'pipe',
  }).toString();
}

function commit(root: string): void {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'corpus');
}

function appendLine(file: string, text: string): number {
  const before = fs.readFileSync(file, 'utf8');
  const body = before.endsWith('\n') ? before : `${before}\n`;
  fs.writeFileSync(file, `${body}${text}\n`);
  return body.split('\n').length - 1 + text.split('\n').length;
}

function prepareTs(root: string): Corpus {
  const src = path.join(packageRoot, 'node_modules/zod/src/v4');
  fs.cpSync(src, root, { recursive: true, filter: (p) => !/[/\\](tests|locales)([/\\]|$)/.test(p.slice(src.length)) });
  const pm = path.join(packageRoot, 'node_modules/picomatch/lib');
  fs.mkdirSync(path.join(root, 'vendor-js'), { recursive: true });
  for (const f of fs.readdirSync(pm)) if (f.endsWith('.js')) fs.copyFileSync(path.join(pm, f), path.join(root, 'vendor-js', f.replace(/\.js$/, '.cjs')));
  for (const f of fs.readdirSync(path.join(root, 'vendor-js'))) {
    const file = path.join(root, 'vendor-js', f);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/require\('\.\/(\w+)'\)/g, "require('./$1.cjs')"));
  }
  fs.writeFileSync(path.join(root, 'vendor-js/entry.mjs'), "import picomatch from './picomatch.cjs';\n\nexport const isJs = picomatch('*.js');\n");
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ESNext',
          module: 'ESNext',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowJs: true,
          checkJs: false,
        },
        include: ['**/*.ts', 'vendor-js/**/*'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "zod-v4-truth", "private": true, "type": "module" }\n');
  const line = appendLine(path.join(root, 'core/util.ts'), "export const plantedTruthError: number = 'not a number';");
  commit(root);
  return { lang: 'ts', root, planted: { file: 'core/util.ts', line, name: 'plantedTruthError' } };
}

function prepareGo(root: string): Corpus {
  const rewrite = (text: string) => text.replace(/"((?:go|mime)\/[\w/]+|mime)"/g, (m, p: string) => (GO_PKGS.includes(p) ? `"${GO_MODULE}/${p}"` : m));
  for (const pkg of GO_PKGS) {
    const dir = path.join(root, pkg);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(path.join(GOROOT_SRC, pkg))) {
      if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
      fs.writeFileSync(path.join(dir, f), rewrite(fs.readFileSync(path.join(GOROOT_SRC, pkg, f), 'utf8')));
    }
  }
  fs.writeFileSync(path.join(root, 'go.mod'), `module ${GO_MODULE}\n\ngo ${newestGoLine()}\n`);
  commit(root);
  return { lang: 'go', root };
}

export const PYLIB = process.env.PYLIB ?? '';

function preparePy(root: string): Corpus {
  const lib = PYLIB || execFileSync('python3', ['-c', 'import json,os;print(os.path.dirname(os.path.dirname(json.__file__)))']).toString().trim();
  for (const pkg of ['json', 'email']) fs.cpSync(path.join(lib, pkg), path.join(root, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
  fs.writeFileSync(path.join(root, 'pyrightconfig.json'), JSON.stringify({ include: ['json', 'email'], exclude: ['email/mime'] }, null, 2));
  const line = appendLine(path.join(root, 'email/utils.py'), '\n\ndef planted_truth_error():\n    return undefined_planted_name + 1');
  commit(root);
  return { lang: 'py', root, planted: { file: 'email/utils.py', line, name: 'undefined_planted_name' } };
}

function preparePhp(root: string, work: string): Corpus | undefined {
  const debs = path.join(work, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  const pkgs = ['php-illuminate-support', 'php-illuminate-collections', 'php-illuminate-contracts'];
  try {
    if (!fs.readdirSync(debs).some((f) => f.startsWith('php-illuminate-support_')))
      execFileSync('apt-get', ['download', ...pkgs], { cwd: debs, stdio: 'pipe', timeout: 120_000 });
  } catch {
    return undefined;
  }
  const unpacked = path.join(work, 'php-unpacked');
  fs.rmSync(unpacked, { recursive: true, force: true });
  for (const f of fs.readdirSync(debs)) if (f.endsWith('.deb')) execFileSync('dpkg', ['-x', path.join(debs, f), unpacked]);
  for (const d of ['Support', 'Collections', 'Contracts'])
    fs.cpSync(path.join(unpacked, 'usr/share/php/Illuminate', d), path.join(root, 'Illuminate', d), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'composer.json'),
    JSON.stringify({ name: 'lspgate-truth/illuminate', autoload: { 'psr-4': { 'Illuminate\\': 'Illuminate/' } } }, null, 2),
  );
  commit(root);
  return { lang: 'php', root };
}

export function prepareCorpus(lang: Lang, work: string): Corpus | undefined {
  const root = path.join(work, lang);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  switch (lang) {
    case 'ts':
      return prepareTs(root);
    case 'go':
      return prepareGo(root);
    case 'py':
      return preparePy(root);
    case 'php':
      return preparePhp(root, work);
  }
}
