/**
 * Hostile workspaces for the write path (rename_symbol apply, tag_elements, code_actions, symbol edits, move_file), shared by
 * test/integration/hostile-writes.test.ts (spawned one-shot CLI and `lspgate mcp` over stdio) and
 * `npm run redteam`. A TypeScript project whose tsconfig includes a directory symlink out of the root
 * (`linked -> ../outside`), a source file that is a symlink to the root's `.env`, a file with a
 * private key in a comment beside a use of the renamed function, a symlink inside the root to
 * another file of the root, and a local git repository (opened with index_repo) that commits an
 * absolute symlink out of it. Each case names the function it renames, so every refusal is its own.
 * After every case, nothing outside the root (and no secret) changed and no temp file was left.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { OUTSIDE_CANARY, SECRET_CANARY } from './hostile-corpus.js';
import { POLYGLOT } from './planted-records.js';

export interface WriteWorkspace {
  tmp: string;
  root: string;
  outside: string;
  /** A git repository (inside the root, so index_repo may open it) committing an absolute symlink to `outside`. */
  repo: string;
}

/** The name no identifier grammar accepts (issue: spliced into every edited file before). */
export const INJECTED_NAME = "x(); require('child_process').execSync('id'); function y";

const GREET = [
  'export function greetDir(s: string): string { return s; }',
  'export function greetEnv(s: string): string { return s; }',
  'export function greetKey(s: string): string { return s; }',
  'export function greetPlain(s: string): string { return s; }',
  'export function greetAliased(s: string): string { return s; }',
  '',
].join('\n');

function write(abs: string, text: string): void {
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

export function buildWriteWorkspace(tmp: string): WriteWorkspace {
  const root = path.join(tmp, 'wroot');
  const outside = path.join(tmp, 'woutside');
  write(path.join(root, 'src/greet.ts'), GREET);
  write(path.join(root, 'src/use.ts'), "import { greetPlain } from './greet';\nexport const plain = greetPlain('p');\n");
  // seen by tsserver as linked/helper.ts (the tsconfig includes linked/**): its import is relative to that path
  write(path.join(outside, 'helper.ts'), `import { greetDir } from '../src/greet';\nexport const out = greetDir('${OUTSIDE_CANARY}');\n`);
  fs.symlinkSync('../woutside', path.join(root, 'linked'));
  // a source file that is the root's .env: the server reads it as src/settings.ts
  write(path.join(root, '.env'), `import { greetEnv } from './greet';\nexport const TOKEN = greetEnv('${SECRET_CANARY}');\n`);
  fs.symlinkSync('../.env', path.join(root, 'src/settings.ts'));
  // a private key two lines above a use of greetKey: diff context would quote it
  write(
    path.join(root, 'src/keyed.ts'),
    `import { greetKey } from './greet';\n// -----BEGIN RSA PRIVATE KEY-----\n// ${SECRET_CANARY}\n// -----END RSA PRIVATE KEY-----\nexport const k = greetKey('k');\n`,
  );
  // a link inside the root to a file of the root: edited through its target, the link kept
  write(path.join(root, 'lib/aliased.ts'), "import { greetAliased } from '../src/greet';\nexport const a = greetAliased('a');\n");
  fs.symlinkSync('../lib/aliased.ts', path.join(root, 'src/alias.ts'));
  // a class with a method and a class after it: symbol edits that close the first early are refused
  write(path.join(root, 'src/box.ts'), 'export class Box {\n  size(): number {\n    return 1;\n  }\n}\n\nexport class Other {\n  x = 1;\n}\n');
  write(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src/**/*', 'linked/**/*'] }),
  );
  const repo = buildRepo(path.join(root, 'vendor-src/abs-link-repo'), outside);
  buildHooks(root);
  return { tmp, root, outside, repo };
}

/**
 * VCS internals within reach: a `.git/hooks` folder, a polyglot executable (valid JavaScript and
 * shell, 0755) to move there, a folder symlink into it (`src/hooks`), and a TypeScript file in it
 * reached through a file symlink (`src/hook-link.ts`), which the symbol edits, rename and tags target.
 */
function buildHooks(root: string): void {
  write(path.join(root, '.git/hooks/helper.ts'), 'export function greetHook(s: string): string {\n  return s;\n}\n');
  write(path.join(root, 'src/tool.js'), POLYGLOT);
  fs.chmodSync(path.join(root, 'src/tool.js'), 0o755);
  fs.symlinkSync('../.git/hooks', path.join(root, 'src/hooks'));
  fs.symlinkSync('../.git/hooks/helper.ts', path.join(root, 'src/hook-link.ts'));
  write(path.join(root, 'src/hook-use.ts'), "import { greetHook } from './hook-link';\nexport const h = greetHook('h');\n");
}

/** A git repository that commits `src/abs.ts -> <outside>/repo-target.ts` (an absolute symlink). */
function buildRepo(repo: string, outside: string): string {
  write(path.join(repo, 'src/lib.ts'), 'export function greetRepo(s: string): string { return s; }\n');
  write(path.join(outside, 'repo-target.ts'), `import { greetRepo } from './lib';\nexport const r = greetRepo('${OUTSIDE_CANARY}');\n`);
  fs.symlinkSync(path.join(outside, 'repo-target.ts'), path.join(repo, 'src/abs.ts'));
  write(path.join(repo, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src/**/*'] }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'an absolute symlink out of the repository');
  return repo;
}

/** Every file and link under `dir` (links as `-> target`, files as their bytes in hex-free text), for before/after comparisons. */
export function treeState(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, ent.name);
      // a repository's own .git (objects git may pack) is not compared; the root's bare .git/hooks is
      if (ent.name === '.git' && fs.existsSync(path.join(abs, 'objects'))) continue;
      if (ent.isSymbolicLink()) out.set(abs, `-> ${fs.readlinkSync(abs)}`);
      else if (ent.isDirectory()) walk(abs);
      else out.set(abs, fs.readFileSync(abs, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

/** Paths whose state differs between two snapshots (added, removed or changed). */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

export interface WriteCase {
  what: string;
  op: string;
  input: (w: WriteWorkspace) => Record<string, unknown>;
  /** The coded error the case answers ('none': a safe answer). */
  code: string;
  /** Paths (relative to the tmp dir) the case may change. */
  mayChange: string[];
}

/** The write cases, each through every front-end (a preview first where the refusal must already hold there). */
export function writeCases(): WriteCase[] {
  return [
    {
      what: 'rename preview through a directory symlink out of the root',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetDir', new_name: 'greetDir2' }),
      code: 'PATH_OUTSIDE_WORKSPACE',
      mayChange: [],
    },
    {
      what: 'rename apply through a directory symlink out of the root',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetDir', new_name: 'greetDir2', apply: true }),
      code: 'PATH_OUTSIDE_WORKSPACE',
      mayChange: [],
    },
    {
      what: 'rename preview of a source file that is a symlink to .env',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetEnv', new_name: 'greetEnv2' }),
      code: 'SECRET_FILE',
      mayChange: [],
    },
    {
      what: 'rename apply of a source file that is a symlink to .env',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetEnv', new_name: 'greetEnv2', apply: true }),
      code: 'SECRET_FILE',
      mayChange: [],
    },
    {
      what: 'rename preview with a private key in the diff context',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetKey', new_name: 'greetKey2' }),
      code: 'SECRET_FILE',
      mayChange: [],
    },
    {
      what: 'rename apply with a private key in the diff context',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetKey', new_name: 'greetKey2', apply: true }),
      code: 'SECRET_FILE',
      mayChange: [],
    },
    {
      what: 'rename to an injected name (preview)',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetPlain', new_name: INJECTED_NAME }),
      code: 'INVALID_INPUT',
      mayChange: [],
    },
    {
      what: 'rename to an injected name (apply)',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetPlain', new_name: INJECTED_NAME, apply: true }),
      code: 'INVALID_INPUT',
      mayChange: [],
    },
    {
      what: 'rename apply in a clone that commits an absolute symlink out of it',
      op: 'rename_symbol',
      input: (w) => ({ symbol: 'greetRepo', new_name: 'greetRepo2', apply: true, workspace: cloneRootOf(w) }),
      code: 'PATH_OUTSIDE_WORKSPACE',
      mayChange: [],
    },
    {
      what: 'tag_elements of a source file that is a symlink to .env',
      op: 'tag_elements',
      input: () => ({ path: 'src/settings.ts', dry_run: false }),
      code: 'SECRET_FILE',
      mayChange: [],
    },
    ...symbolEditCases(),
    ...vcsCases(),
    {
      what: 'rename apply through a symlink inside the root: the target edited, the link kept',
      op: 'rename_symbol',
      input: () => ({ symbol: 'greetAliased', new_name: 'greetAliasedRenamed', apply: true }),
      code: 'none',
      mayChange: ['wroot/src/greet.ts', 'wroot/lib/aliased.ts'],
    },
  ];
}

const KEY_BODY = `export function greetPlain(s: string): string {\n  // -----BEGIN RSA PRIVATE KEY-----\n  // ${SECRET_CANARY}\n  // -----END RSA PRIVATE KEY-----\n  return s;\n}`;
const PLAIN_BODY = 'export function greetPlain(s: string): string {\n  return s + s;\n}';

/** The symbol edits (replace_symbol_body, insert_after_symbol, delete_symbol) on the same hostile files. */
function symbolEditCases(): WriteCase[] {
  const none: string[] = [];
  return [
    {
      what: 'replace_symbol_body in a file reached through a directory symlink out of the root',
      op: 'replace_symbol_body',
      input: () => ({ file: 'linked/helper.ts', line: 2, body: 'export const out = 1;', apply: true }),
      code: 'PATH_OUTSIDE_WORKSPACE',
      mayChange: none,
    },
    {
      what: 'insert_after_symbol in a source file that is a symlink to .env',
      op: 'insert_after_symbol',
      input: () => ({ file: 'src/settings.ts', line: 2, body: 'export const more = 1;', apply: true }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
    {
      what: 'replace_symbol_body in the file holding a private key',
      op: 'replace_symbol_body',
      input: () => ({ file: 'src/keyed.ts', line: 5, body: 'export const k = 2;' }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
    {
      what: 'replace_symbol_body with a private key in the new text',
      op: 'replace_symbol_body',
      input: () => ({ symbol: 'greetPlain', body: KEY_BODY, apply: true }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
    {
      what: 'replace_symbol_body with text that closes the class early and opens another',
      op: 'replace_symbol_body',
      input: () => ({ symbol: 'Box.size', body: 'size(): number { return 1; }\n}\nexport class Evil {\n  run(): void {}', apply: true }),
      code: 'INVALID_INPUT',
      mayChange: none,
    },
    {
      what: 'replace_symbol_body apply of a file changed since the preview (its hash)',
      op: 'replace_symbol_body',
      input: () => ({ symbol: 'greetPlain', body: PLAIN_BODY, apply: true, expected_hash: '0'.repeat(64) }),
      code: 'CONTENT_MODIFIED',
      mayChange: none,
    },
    {
      what: 'delete_symbol of a referenced function',
      op: 'delete_symbol',
      input: () => ({ symbol: 'greetPlain', apply: true }),
      code: 'INVALID_INPUT',
      mayChange: none,
    },
    // move_file: the target through a directory symlink out of the root, a secret-named target, and sources that are a secret
    {
      what: 'move_file into a directory symlink out of the root',
      op: 'move_file',
      input: () => ({ file: 'src/use.ts', to: 'linked/use.ts', apply: true }),
      code: 'PATH_OUTSIDE_WORKSPACE',
      mayChange: none,
    },
    {
      what: 'move_file to a secret-named target',
      op: 'move_file',
      input: () => ({ file: 'src/use.ts', to: 'src/.env.local', apply: true }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
    {
      what: 'move_file of a source file that is a symlink to .env',
      op: 'move_file',
      input: () => ({ file: 'src/settings.ts', to: 'src/settings2.ts', apply: true }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
    {
      what: 'move_file of the file holding a private key',
      op: 'move_file',
      input: () => ({ file: 'src/keyed.ts', to: 'src/keyed2.ts' }),
      code: 'SECRET_FILE',
      mayChange: none,
    },
  ];
}

/** Every write operation aimed at VCS internals: directly, through a symlinked folder or file, through `..`. */
function vcsCases(): WriteCase[] {
  const refused = { code: 'PATH_OUTSIDE_WORKSPACE', mayChange: [] as string[] };
  const move = (to: string, how: string): WriteCase => ({
    what: `move_file of a polyglot executable to ${to} (${how})`,
    op: 'move_file',
    input: () => ({ file: 'src/tool.js', to, apply: true, accept_errors: true }),
    ...refused,
  });
  const body = 'export function greetHook(s: string): string {\n  return s + s;\n}';
  return [
    move('.git/hooks/post-commit', 'direct'),
    move('src/hooks/post-commit', 'a symlinked folder into .git/hooks'),
    move('src/../.git/hooks/post-commit', 'a `..` spelling'),
    move('.GIT/hooks/post-commit', 'another case'),
    move('.lspgate/config.json', 'tool internals'),
    {
      what: 'replace_symbol_body in a file of .git/hooks reached through a file symlink',
      op: 'replace_symbol_body',
      input: () => ({ file: 'src/hook-link.ts', line: 1, body, apply: true }),
      ...refused,
    },
    {
      what: 'insert_after_symbol in a file of .git/hooks reached through a file symlink',
      op: 'insert_after_symbol',
      input: () => ({ file: 'src/hook-link.ts', line: 1, body: 'export const more = 1;', apply: true }),
      ...refused,
    },
    {
      what: 'delete_symbol in a file of .git/hooks reached through a file symlink',
      op: 'delete_symbol',
      input: () => ({ file: 'src/hook-link.ts', line: 1, apply: true, force: true }),
      ...refused,
    },
    {
      what: 'rename apply of a function declared in .git/hooks (reached through a file symlink)',
      op: 'rename_symbol',
      input: () => ({ file: 'src/hook-link.ts', line: 1, new_name: 'greetHook2', apply: true }),
      ...refused,
    },
    {
      what: 'tag_elements of a file of .git/hooks through a file symlink',
      op: 'tag_elements',
      input: () => ({ path: 'src/hook-link.ts', dry_run: false }),
      ...refused,
    },
  ];
}

/** Filled in by the front-end that opened the clone (index_repo answers its root). */
export const clones = new Map<string, string>();

function cloneRootOf(w: WriteWorkspace): string {
  const r = clones.get(w.repo);
  if (!r) throw new Error('index_repo of the symlink repository has not run');
  return r;
}
