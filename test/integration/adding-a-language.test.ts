/**
 * "Adding a language" done as the recipe says: a grammar-only language is one profile folder under
 * src/adapters/ and the build's registry generator, nothing else. The test builds a copy of the
 * package as `npm run build` would: the built dist/, the adapter folders with the fixture folder
 * fixtures/adding-a-language/adapters/powershell added, scripts/gen-language-registry.mjs run on
 * them, and the new profile and the regenerated registry compiled beside the others. It asks that
 * copy, through its CLI, for an outline and a symbol search of a PowerShell script: PowerShell's
 * grammar ships in the tree-sitter package and no profile of the checkout uses it, so every answer
 * comes from the added folder.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { languageProfile } from '../../src/adapters/languages.js';
import { assertBuilt, removeDir, REPO, spawnNode, tempDir } from '../helpers/spawn.js';

const FIXTURE = path.join(REPO, 'fixtures/adding-a-language');
const PACKAGE_FILES = ['package.json', 'servers.json', 'servers.schema.json', 'config.schema.json'];
/** A cold one-shot CLI (grammar load, first walk) took 2 minutes on 2 cores at load 14; seconds when idle. */
const CLI_BOUND_MS = 300_000;

let tmp: string;
let cli: string;
let project: string;

/** The copy's CLI on the copy's project, one operation; its JSON answer. */
async function run(operation: string, args: string[]): Promise<Record<string, unknown>> {
  const p = spawnNode(cli, [operation, ...args, '--root', project, '--json'], { cacheDir: path.join(tmp, 'cache'), cwd: project });
  p.child.stdin?.end('');
  const { code } = await p.exited;
  expect([operation, code, p.stderr()]).toEqual([operation, 0, expect.any(String)]);
  return JSON.parse(p.stdout()) as Record<string, unknown>;
}

beforeAll(() => {
  assertBuilt();
  tmp = realpathSync(tempDir('lspgate-add-language-'));
  // the package as built: dist/src and the files beside it, with the checkout's dependencies
  cpSync(path.join(REPO, 'dist/src'), path.join(tmp, 'dist/src'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  for (const f of PACKAGE_FILES) cpSync(path.join(REPO, f), path.join(tmp, f));
  symlinkSync(realpathSync(path.join(REPO, 'node_modules')), path.join(tmp, 'node_modules'));
  // the recipe's step: the profile folder; then the build's: the registry generated, both compiled
  const adapters = path.join(tmp, 'src/adapters');
  cpSync(path.join(REPO, 'src/adapters'), adapters, { recursive: true });
  cpSync(path.join(FIXTURE, 'adapters/powershell'), path.join(adapters, 'powershell'), { recursive: true });
  const gen = spawnSync(process.execPath, [path.join(REPO, 'scripts/gen-language-registry.mjs'), '--root', tmp], { encoding: 'utf8' });
  expect([gen.status, gen.stderr]).toEqual([0, '']);
  mkdirSync(path.join(tmp, 'dist/src/adapters/powershell'));
  for (const rel of ['powershell/profile', 'profiles.generated']) {
    const source = readFileSync(path.join(adapters, `${rel}.ts`), 'utf8');
    const out = ts.transpileModule(source, { fileName: `${rel}.ts`, compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } });
    writeFileSync(path.join(tmp, 'dist/src/adapters', `${rel}.js`), out.outputText);
  }
  cli = path.join(tmp, 'dist/src/cli/main.js');
  project = path.join(tmp, 'project');
  cpSync(path.join(FIXTURE, 'project'), project, { recursive: true });
});

afterAll(() => removeDir(tmp));

describe('adding a grammar-only language is one profile folder', () => {
  it('the checkout itself has no such language (the answers below come from the added folder)', () => {
    expect(languageProfile('powershell')).toBeUndefined();
  });

  it(
    'get_file_outline lists the script functions, classes and members',
    async () => {
      const outline = await run('get_file_outline', ['--file', 'scripts/deploy.ps1', '--detail', 'names']);
      expect(outline.language).toBe('powershell');
      const flat = (nodes: { name: string; kind: string; children?: unknown[] }[], pre = ''): string[] =>
        nodes.flatMap((n) => [`${pre}${n.name}#${n.kind}`, ...flat((n.children ?? []) as typeof nodes, `${pre}${n.name}.`)]);
      expect(flat(outline.symbols as never)).toEqual([
        'Publish-Release#function',
        'Get-ReleaseNotes#function',
        'ReleaseInfo#class',
        'ReleaseInfo.Name#property',
        'ReleaseInfo.Describe#method',
      ]);
    },
    CLI_BOUND_MS,
  );

  it(
    'search_symbols finds a function by name, in that language',
    async () => {
      const search = await run('search_symbols', ['--query', 'Get-ReleaseNotes']);
      const hit = (search.results as { name: string; file: string; language: string }[])[0];
      expect(hit).toMatchObject({ name: 'Get-ReleaseNotes', file: 'scripts/deploy.ps1', language: 'powershell' });
    },
    CLI_BOUND_MS,
  );
});
