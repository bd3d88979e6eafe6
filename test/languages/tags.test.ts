// tag_elements on scratch copies: a dry run writes nothing; a write changes exactly the reported
// elements, keeps a backup that restores the original, and never leaves the workspace.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { goAvailable, goEnv } from '../helpers/go.js';
import { openScratch } from '../helpers/scratch.js';

interface Element {
  file: string;
  line: number;
  name: string;
  qualified_name: string;
  element_type: string;
  tag: string;
  action: string;
}

const SHAPES_TAGS = [
  'tag // @If/src/shapes.ts#Shape:2',
  'tag // @Mt/src/shapes.ts#Shape.area:4',
  'tag // @Cl/src/shapes.ts#Circle:8',
  'tag // @Mt/src/shapes.ts#Circle.area:11',
  'tag // @Cl/src/shapes.ts#Square:17',
  'tag // @Mt/src/shapes.ts#Square.area:20',
  // above the comment that documents it
  'tag // @Cl/src/shapes.ts#Base:27',
  'tag // @Cl/src/shapes.ts#Only:29',
];

describe('tag_elements: TypeScript', async () => {
  const fx = await openScratch('pat-ts', { '.env': 'TOKEN=x\n', 'src/.env.ts': 'export function secret() {}\n' });
  const file = path.join(fx.root, 'src/shapes.ts');
  const original = fs.readFileSync(file);

  it('dry run (the default) reports the elements and writes nothing', async () => {
    const r = await fx.run('tag_elements', { path: 'src/shapes.ts' });
    expect(r.dry_run).toBe(true);
    expect(r.elements.map((e: Element) => `${e.action} ${e.tag}`)).toEqual(SHAPES_TAGS);
    expect(r.text).toBe('Would tag 8 element(s) in 1 file(s):\n - 3 methods (@Mt)\n - 4 classes (@Cl)\n - 1 interfaces (@If)');
    expect(r.files.map((f: { file: string; tags: number }) => `${f.file} ${f.tags}`)).toEqual(['src/shapes.ts 8']);
    expect(fs.readFileSync(file).equals(original)).toBe(true);
    expect(r.backup_dir).toBeUndefined();
  });

  it('a write adds exactly the reported tags, each naming its own line; the backup restores the original', async () => {
    const r = await fx.run('tag_elements', { path: 'src/shapes.ts', dry_run: false });
    expect(r.dry_run).toBe(false);
    const after = fs.readFileSync(file, 'utf8').split('\n');
    const added = after.filter((l) => /@(If|Mt|Cl)\//.test(l)).map((l) => l.trim());
    expect(added).toEqual(SHAPES_TAGS.map((t) => t.slice(4)));
    // removing the tag lines gives the original bytes back: nothing else changed
    expect(after.filter((l) => !/@(If|Mt|Cl)\//.test(l)).join('\n')).toBe(original.toString('utf8'));
    for (const e of r.elements as Element[]) {
      const line = Number(/:(\d+)$/.exec(e.tag)![1]);
      expect(after[line - 1]).toContain(e.name);
      expect(after.slice(Math.max(0, line - 4), line - 1).map((l) => l.trim())).toContain(e.tag);
    }
    expect(r.backup_dir.startsWith(fx.cacheDir + path.sep)).toBe(true);
    const backup = path.join(r.backup_dir, 'src/shapes.ts');
    expect(fs.readFileSync(backup).equals(original)).toBe(true);
    // the catalog follows the write: the next dry run finds every element tagged
    const again = await fx.run('tag_elements', { path: 'src/shapes.ts' });
    expect(again.elements.map((e: Element) => e.action)).toEqual(SHAPES_TAGS.map(() => 'skip'));
    expect(again.files).toEqual([]);
    fs.copyFileSync(backup, file);
    expect(fs.readFileSync(file).equals(original)).toBe(true);
  });

  it('a directory is tagged file by file; exclude and lang narrow it', async () => {
    const r = await fx.run('tag_elements', { path: 'src', exclude: 'src/shapes.ts,src/routes.ts' });
    expect([...new Set(r.elements.map((e: Element) => e.file))]).toEqual(['src/errors.ts', 'src/service.ts', 'src/types.ts']);
    expect(r.elements.filter((e: Element) => e.file === 'src/service.ts').map((e: Element) => e.qualified_name)).toEqual([
      'logged',
      'Store',
      'Store.get',
      'Store.put',
      'Store.load',
    ]);
    const none = await fx.run('tag_elements', { path: 'src', lang: 'py' });
    expect(none.total).toBe(0);
  });

  it('refuses paths outside the workspace, symlinks out of it, and secret files; nothing is written', async () => {
    expect((await fx.runError('tag_elements', { path: '../../etc', dry_run: false })).code).toBe('PATH_OUTSIDE_WORKSPACE');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-out-'));
    fs.writeFileSync(path.join(outside, 'x.ts'), 'export function outsider() {}\n');
    fs.symlinkSync(outside, path.join(fx.root, 'src/link'));
    expect((await fx.runError('tag_elements', { path: 'src/link', dry_run: false })).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect((await fx.runError('tag_elements', { path: 'src/link/x.ts', dry_run: false })).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(fs.readFileSync(path.join(outside, 'x.ts'), 'utf8')).toBe('export function outsider() {}\n');
    expect((await fx.runError('tag_elements', { path: 'src/.env.ts', dry_run: false })).code).toBe('SECRET_FILE');
    expect(fs.readFileSync(path.join(fx.root, 'src/.env.ts'), 'utf8')).toBe('export function secret() {}\n');
    fs.rmSync(outside, { recursive: true, force: true });
  });
});

describe('tag_elements: Python', async () => {
  const fx = await openScratch('pat-py', { 'app/priv.py': 'def _helper():\n    return 1\n\n\ndef public():\n    return _helper()\n' });

  it('# comments, indented for members, above decorators; private names only with include_private', async () => {
    const file = path.join(fx.root, 'app/shapes.py');
    const original = fs.readFileSync(file, 'utf8');
    const r = await fx.run('tag_elements', { path: 'app/shapes.py', dry_run: false });
    expect(r.elements.map((e: Element) => e.tag)).toEqual([
      '# @Cl/app/shapes.py#Shape:6',
      '# @Mt/app/shapes.py#Shape.area:9',
      '# @Cl/app/shapes.py#Circle:14',
      '# @Mt/app/shapes.py#Circle.area:18',
      '# @Cl/app/shapes.py#Square:24',
      '# @Mt/app/shapes.py#Square.area:28',
    ]);
    const after = fs.readFileSync(file, 'utf8').split('\n');
    expect(after.slice(11, 14)).toEqual(['# @Cl/app/shapes.py#Circle:14', '@dataclass', 'class Circle(Shape):']);
    expect(after.slice(6, 9)).toEqual(['    # @Mt/app/shapes.py#Shape.area:9', '    @abstractmethod', '    def area(self) -> float: ...']);
    expect(after.filter((l) => !l.includes('# @')).join('\n')).toBe(original);
    const web = await fx.run('tag_elements', { path: 'app/web.py' });
    expect(web.elements.map((e: Element) => e.qualified_name)).toEqual(['App', 'App.route', 'list_items', 'get_item', 'put_item']);
    expect((await fx.run('tag_elements', { path: 'app/priv.py' })).elements.map((e: Element) => e.name)).toEqual(['public']);
    expect((await fx.run('tag_elements', { path: 'app/priv.py', include_private: true })).elements.map((e: Element) => e.name)).toEqual(['_helper', 'public']);
  });
});

describe.runIf(goAvailable)('tag_elements: Go', async () => {
  const fx = await openScratch('partial-go');

  it('tags are `//lspgate:tag` directives, which go doc leaves out of the documentation', async () => {
    const r = await fx.run('tag_elements', { path: 'chain/c/c.go', dry_run: false });
    expect(r.elements.map((e: Element) => `${e.action} ${e.tag}`)).toEqual(['tag //lspgate:tag @Fn/chain/c/c.go#Bottom:6']);
    const after = fs.readFileSync(path.join(fx.root, 'chain/c/c.go'), 'utf8').split('\n');
    expect(after.slice(2, 6)).toEqual(['', '//lspgate:tag @Fn/chain/c/c.go#Bottom:6', '// Bottom is called from a and from b.', 'func Bottom() int {']);
    // go doc (the go command's own doc tool) shows the doc comment without the tag
    const doc = execFileSync('go', ['doc', './chain/c', 'Bottom'], { cwd: fx.root, env: { ...process.env, ...goEnv }, encoding: 'utf8' });
    expect(doc).toContain('Bottom is called from a and from b.');
    expect(doc).not.toContain('lspgate');
    expect(doc).not.toContain('@Fn');
    // tagged once: a second run finds the directive and skips it
    const again = await fx.run('tag_elements', { path: 'chain/c/c.go' });
    expect(again.elements.map((e: Element) => e.action)).toEqual(['skip']);
  });
});
