import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { INDEX_VERSION } from '../../src/catalog/store.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { JsonResult } from '../helpers/results.js';

const FIXTURE = path.resolve(__dirname, '../../fixtures/repo-basic');
let tmp: string;
let root: string;
let gateway: Gateway;

type R = JsonResult;
const run = async (op: string, input: R): Promise<R> => (await gateway.run(op, { output_format: 'json', ...input })).result as R;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-')));
  root = path.join(tmp, 'repo');
  fs.cpSync(FIXTURE, root, { recursive: true });
  // The categories the pipeline must leave out (not committed to the fixture: git would ignore some).
  const w = (rel: string, s: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), s);
  };
  w('.gitignore', 'ignored/\n');
  w('ignored/hidden.ts', 'export function hiddenByGitignore(): number {\n  return 1;\n}\n');
  w('node_modules/dep/index.ts', 'export function insideNodeModules(): number {\n  return 3;\n}\n');
  w('.env', 'API_TOKEN=canary-secret-7f3e\n');
  w('src/blob.ts', Buffer.from([0x65, 0x00, 0x66]));
  w('docs/notes.txt', 'TODO: remember the greeting canary-note\n');
  // the upstream of the local-clone test lives beside the root: the user allows it explicitly
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache'), allowedRoots: [path.join(tmp, 'upstream')] });
});

afterAll(async () => {
  await gateway.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('repository operations', () => {
  it('index_folder catalogs with progress and reports what it skipped', async () => {
    const progress: number[] = [];
    const { result } = await gateway.run('index_folder', { path: root, output_format: 'json' }, { progress: (p) => progress.push(p.progress) });
    const r = result as R;
    expect(r.files).toBe(4);
    expect(r.languages).toEqual({ typescript: 3, python: 1 });
    expect(r.skipped).toMatchObject({ gitignore: 1, skip_pattern: 1, binary: 1, secret: 1 });
    expect(r.state).toBe('ready');
    expect(progress.at(-1)).toBe(4);
    const repos = await run('list_repos', {});
    expect(repos.repos).toEqual([expect.objectContaining({ workspace: r.workspace, files: 4, symbols: r.symbols, index_version: INDEX_VERSION })]);
  });

  it('get_repo_outline and get_file_tree describe the structure and count tokens saved', async () => {
    const o = await run('get_repo_outline', {});
    expect(o.directories).toEqual([
      { path: 'lib', files: 1, symbols: expect.any(Number) },
      { path: 'src', files: 2, symbols: expect.any(Number) },
      { path: 'src/util', files: 1, symbols: 2 },
    ]);
    expect(o.symbol_kinds.function).toBeGreaterThan(3);
    expect(o._meta.tokens_saved).toBeGreaterThan(0);
    const t = await run('get_file_tree', { path_prefix: 'src' });
    expect(t.tree.path).toBe('src');
    expect(t.tree.children.map((c: R) => c.name)).toEqual(['util', 'café.ts', 'greeter.ts']);
    expect(t.tree.children[0].children[0]).toEqual({ name: 'strings.ts', path: 'src/util/strings.ts', type: 'file', language: 'typescript', symbols: 2 });
    await expect(gateway.run('get_file_tree', { path_prefix: '../..' })).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('search_symbols ranks exact over prefix over substring, filters, and pages with a cursor', async () => {
    const r = await run('search_symbols', { query: 'greet' });
    expect(r.results[0].symbol_id).toBe('src/greeter.ts::Greeter.greet#method');
    const names = r.results.map((h: R) => h.name);
    expect(names.indexOf('Greeter')).toBeLessThan(names.indexOf('makeGreeter'));
    const py = await run('search_symbols', { query: 'area', language: 'python', kind: 'function' });
    expect(py.results.map((h: R) => h.symbol_id)).toEqual(['lib/shapes.py::total_area#function']);
    const all: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await run('search_symbols', { query: 'e', max_results: 3, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeLessThanOrEqual(3);
      all.push(...page.results.map((h: R) => h.symbol_id));
      cursor = page._meta.next_cursor;
      if (cursor) expect(page._meta.truncated).toBe(true);
      pages++;
    } while (cursor && pages < 50);
    const whole = await run('search_symbols', { query: 'e', max_results: 1000 });
    expect(all).toEqual(whole.results.map((h: R) => h.symbol_id));
    expect(pages).toBeGreaterThan(2);
    const small = await run('search_symbols', { query: 'e', max_tokens: 60 });
    expect(small.results).toHaveLength(1);
    expect(small._meta.limits_hit).toEqual([{ limit: 'max_tokens', value: 60 }]);
    await expect(gateway.run('search_symbols', { query: 'x', cursor: small._meta.next_cursor })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('get_symbol returns the exact source, verifies it, and notices a changed file', async () => {
    const r = await run('get_symbol', { symbol_id: 'src/util/strings.ts::capitalize#function', verify: true, context_lines: 1 });
    expect(r.source).toBe('export function capitalize(s: string): string {\n  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);\n}');
    expect(r._meta.content_verified).toBe(true);
    expect(r.context.before).toBe('/** Upper-cases the first letter. Leaves the rest alone. */');
    const file = path.join(root, 'src/util/strings.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('s.slice(1)', 's.slice(1).trim()'));
    const again = await run('get_symbol', { symbol_id: 'src/util/strings.ts::capitalize#function', verify: true });
    expect(again._meta.content_verified).toBe(false);
    expect(again.source).toContain('s.slice(1).trim()');
    const many = await run('get_symbols', { symbol_ids: ['src/util/strings.ts::slugify#function', 'src/nope.ts::x#function', '../../etc/passwd::x#function'] });
    expect(many.symbols.map((s: R) => s.symbol.name)).toEqual(['slugify']);
    expect(many.errors.map((e: R) => e.code)).toEqual(['SYMBOL_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE']);
  });

  it('search_text finds literals and regexes in text files, never in secrets or ignored files', async () => {
    const lit = await run('search_text', { query: 'CANARY-NOTE' });
    expect(lit.matches).toEqual([{ file: 'docs/notes.txt', line: 1, column: 29, text: 'TODO: remember the greeting canary-note' }]);
    expect((await run('search_text', { query: 'CANARY-NOTE', case_sensitive: true })).matches).toEqual([]);
    expect((await run('search_text', { query: 'canary-secret' })).matches).toEqual([]);
    expect((await run('search_text', { query: 'hiddenByGitignore' })).matches).toEqual([]);
    expect((await run('search_text', { query: 'insideNodeModules' })).matches).toEqual([]);
    const re = await run('search_text', { query: 'function \\w+\\(s: string\\)', regex: true, file_pattern: '*.ts', context_lines: 1 });
    expect(re.matches.map((m: R) => `${m.file}:${m.line}`)).toEqual(['src/util/strings.ts:2']);
    expect(re.matches[0].before).toEqual(['/** Upper-cases the first letter. Leaves the rest alone. */']);
    // RE2 runs it in linear time: an ordinary search now; a backreference is what RE2 refuses
    expect((await run('search_text', { query: '(a+)+$', regex: true })).matches).toEqual([]);
    await expect(gateway.run('search_text', { query: '(a)\\1', regex: true })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(gateway.run('search_text', { query: '([', regex: true })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const paged = await run('search_text', { query: 'return', max_results: 2 });
    expect(paged.matches).toHaveLength(2);
    const next = await run('search_text', { query: 'return', max_results: 2, cursor: paged._meta.next_cursor });
    expect(next.matches[0]).not.toEqual(paged.matches[0]);
  });

  it('detect_drift reports added, removed and modified symbols; refresh re-syncs named files', async () => {
    await run('detect_drift', { reset: true });
    const greeter = path.join(root, 'src/greeter.ts');
    fs.writeFileSync(
      greeter,
      fs
        .readFileSync(greeter, 'utf8')
        .replace('return String(value);', 'return `${value}`;')
        .replace(/\/\*\* Makes a greeter[\s\S]*$/, ''),
    );
    fs.writeFileSync(path.join(root, 'lib/extra.py'), 'def added_later():\n    return 1\n');
    const d = await run('detect_drift', {});
    expect(d.added).toEqual(['lib/extra.py::added_later#function']);
    expect(d.removed).toEqual(expect.arrayContaining(['src/greeter.ts::makeGreeter#function']));
    expect(d.modified).toEqual(['src/greeter.ts::format#function~3']);
    // seed 002 DriftOutput: counts and one detail per id, with the element's name and file
    expect(d.success).toBe(true);
    expect(d.drift_report).toMatchObject({ added_elements: 1, removed_elements: d.removed.length, modified_elements: 1 });
    expect(d.drift_report.details).toHaveLength(2 + d.removed.length);
    expect(d.drift_report.details).toEqual(
      expect.arrayContaining([
        { element: 'added_later', change_type: 'added', file: 'lib/extra.py', symbol_id: 'lib/extra.py::added_later#function' },
        { element: 'makeGreeter', change_type: 'removed', file: 'src/greeter.ts', symbol_id: 'src/greeter.ts::makeGreeter#function' },
        { element: 'format', change_type: 'modified', file: 'src/greeter.ts', symbol_id: 'src/greeter.ts::format#function~3' },
      ]),
    );
    const page = await run('detect_drift', { max_results: 1 });
    expect(page.drift_report.details).toEqual([d.drift_report.details[0]]);
    expect(page._meta.truncated).toBe(true);
    const next = await run('detect_drift', { max_results: 1, cursor: page._meta.next_cursor });
    expect(next.drift_report.details).toEqual([d.drift_report.details[1]]);
    const r = await run('refresh', { paths: ['lib/extra.py', '../escape.py'] });
    expect(r.refreshed).toEqual(['lib/extra.py']);
    expect(r.errors).toEqual([expect.objectContaining({ code: 'PATH_OUTSIDE_WORKSPACE' })]);
  });

  it('invalidate_cache drops the catalog and the next call rebuilds it', async () => {
    const ws = (await run('list_repos', {})).repos[0].workspace;
    const r = await run('invalidate_cache', { workspace: ws });
    expect(r.invalidated).toBe(true);
    expect((await run('list_repos', {})).repos[0].symbols).toBe(0);
    expect((await run('search_symbols', { query: 'capitalize' })).results[0].symbol_id).toBe('src/util/strings.ts::capitalize#function');
  });

  it('index_repo clones a local repository by path and by file:// URL', async () => {
    const src = path.join(tmp, 'upstream');
    fs.mkdirSync(path.join(src, 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(src, 'pkg/tool.py'), 'def cloned_tool():\n    """Does the cloned thing."""\n    return 42\n');
    const git = (...args: string[]) => execa('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: src });
    await git('init', '-q', '-b', 'main');
    await git('add', '.');
    await git('commit', '-q', '-m', 'one');
    const head = (await git('rev-parse', 'HEAD')).stdout.trim();
    for (const url of [src, pathToFileURL(src).href]) {
      const r = await run('index_repo', { url });
      expect(r.git_head).toBe(head);
      expect(r.files).toBe(1);
      expect(r.clone_path.startsWith(path.join(tmp, 'cache', 'repos'))).toBe(true);
      const hits = await run('search_symbols', { query: 'cloned_tool', workspace: r.workspace });
      expect(hits.results.map((h: R) => h.symbol_id)).toEqual(['pkg/tool.py::cloned_tool#function']);
      expect(hits.results[0].summary).toBe('Does the cloned thing.');
    }
    await expect(gateway.run('index_repo', { url: '--upload-pack=touch /tmp/x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(gateway.run('index_repo', { url: path.join(tmp, 'no-such-repo') })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });
});
