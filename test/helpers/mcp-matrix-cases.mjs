/**
 * The client matrix's workspace: a copy of fixtures/ts-app with a secret file, a text file and a
 * tiny git repository beside it. The calls made on it are in mcp-client-cases.mjs.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Plain JavaScript so that scripts/python-client-matrix.sh can run the same table under Node.
const TS_APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/ts-app');

/** @typedef {{ root: string, upstream: string, folder: string }} MatrixWorkspace  upstream: a git repository (index_repo); folder: for index_folder */

/** Under `dir`: `ws/` (ts-app + `.env` + `notes.txt`), `upstream/` (a one-commit git repo), `folder/`. */
/** @param {string} dir @returns {MatrixWorkspace} */
export function makeMatrixWorkspace(dir) {
  const root = path.join(dir, 'ws');
  cpSync(TS_APP, root, { recursive: true });
  writeFileSync(path.join(root, '.env'), 'TOKEN=never-returned\n');
  writeFileSync(path.join(root, 'notes.txt'), 'plain text, no language server\n');
  // tag_elements writes only here: a scratch file inside the copied workspace (names of its own,
  // so that no other call's symbol becomes ambiguous)
  mkdirSync(path.join(root, 'tag-scratch'));
  writeFileSync(path.join(root, 'tag-scratch/tagme.ts'), 'export function tagScratchOnly(): number {\n  return 1;\n}\n\nexport class TagScratchBox {}\n');
  const upstream = path.join(dir, 'upstream');
  mkdirSync(upstream);
  writeFileSync(path.join(upstream, 'README.md'), '# upstream\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: upstream, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  // The workspace is a git repository too (changed_symbols diffs the working tree against HEAD).
  const gitWs = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
  gitWs('init', '-q', '-b', 'main');
  gitWs('add', '.');
  gitWs('commit', '-q', '-m', 'fixture');
  const folder = path.join(dir, 'folder');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'README.md'), '# a folder\n');
  return { root, upstream, folder };
}
