import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Catalog } from '../../src/core/catalog.js';
import { Gateway } from '../../src/gateway/gateway.js';

const FIXTURE = path.resolve(__dirname, '../../fixtures/repo-basic');
let tmp: string;
let root: string;
let cacheDir: string;
let gateway: Gateway;
let cat: Catalog;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-')));
  root = path.join(tmp, 'repo');
  cacheDir = path.join(tmp, 'cache');
  fs.cpSync(FIXTURE, root, { recursive: true });
  gateway = await Gateway.create({ root, cacheDir });
  cat = (await gateway.openWorkspace(root)).catalog;
  await cat.build();
});

afterAll(async () => {
  await gateway.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const sliceOf = (rel: string, offset: number, length: number) =>
  fs
    .readFileSync(path.join(root, rel))
    .subarray(offset, offset + length)
    .toString('utf8');

describe('catalog contents', () => {
  it('catalogs every source file with stable ids', async () => {
    const st = cat.status();
    expect(st.state).toBe('ready');
    expect(st.errors).toEqual([]);
    expect([...cat.files().keys()].sort()).toEqual(['lib/shapes.py', 'src/café.ts', 'src/greeter.ts', 'src/util/strings.ts']);
    const ids = (await cat.all()).map((s) => s.symbol_id);
    for (const id of [
      'src/greeter.ts::Greeter#class',
      'src/greeter.ts::Greeter.greet#method',
      'src/greeter.ts::GreeterOptions#interface',
      'src/greeter.ts::makeGreeter#function',
      'src/util/strings.ts::slugify#function',
      'lib/shapes.py::Shape#class',
      'lib/shapes.py::Shape.area#method',
      'lib/shapes.py::total_area#function',
    ]) {
      expect(ids).toContain(id);
    }
    // Overloads share a name: the later declarations get ~2, ~3 in source order.
    const formats = (await cat.all()).filter((s) => s.name === 'format' && s.file === 'src/greeter.ts');
    expect(formats.map((s) => s.symbol_id)).toEqual([
      'src/greeter.ts::format#function',
      'src/greeter.ts::format#function~2',
      'src/greeter.ts::format#function~3',
    ]);
    expect(formats.map((s) => s.line)).toEqual([...formats.map((s) => s.line)].sort((a, b) => a - b));
  });

  it('records ranges, byte offsets and content hashes that slice the exact source (non-ASCII too)', async () => {
    const brew = await cat.byId('src/café.ts::brew#function');
    expect(brew).toBeDefined();
    const text = sliceOf(brew!.file, brew!.byte_offset, brew!.byte_length);
    expect(text.startsWith('export function brew(cups: number): string {')).toBe(true);
    expect(text.trimEnd().endsWith('}')).toBe(true);
    const lines = fs.readFileSync(path.join(root, 'src/café.ts'), 'utf8').split('\n');
    expect(brew!.line).toBe(lines.findIndex((l) => l.includes('function brew')) + 1);
    expect(brew!.end_line).toBe(brew!.line + 2);
    expect(brew!.selection_column).toBe(lines[brew!.line - 1]!.indexOf('brew') + 1);
    const bytes = fs.readFileSync(path.join(root, 'src/café.ts')).subarray(brew!.byte_offset, brew!.byte_offset + brew!.byte_length);
    expect(brew!.content_hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    const senal = await cat.byId('src/café.ts::señal#constant');
    expect(sliceOf('src/café.ts', senal!.byte_offset, senal!.byte_length)).toBe("señal = '☕'");
  });

  it('reads signatures, docstrings and summaries from source', async () => {
    const greet = (await cat.byId('src/greeter.ts::Greeter.greet#method'))!;
    expect(greet.signature).toBe('greet(name: string = DEFAULT_NAME): string');
    expect(greet.summary).toBe('Greets one person by name.');
    expect(greet.parent).toBe('src/greeter.ts::Greeter#class');
    const greeter = (await cat.byId('src/greeter.ts::Greeter#class'))!;
    expect(greeter.docstring).toContain('@example');
    expect(greeter.summary).toBe('Builds greetings for people.');
    const make = (await cat.byId('src/greeter.ts::makeGreeter#function'))!;
    expect(make.signature).toBe('export function makeGreeter(mood: Mood, punctuation: string,): Greeter');
    const area = (await cat.byId('lib/shapes.py::Shape.area#method'))!;
    expect(area.docstring).toBe('The area of the shape, in square units.');
    const circleArea = (await cat.byId('lib/shapes.py::Circle.area#method'))!;
    expect(circleArea.docstring).toBeUndefined();
    expect(circleArea.summary).toBe(circleArea.signature);
  });

  it('looks names up by name, qualified-name suffix and module path, with filters', async () => {
    expect((await cat.lookup('greet')).map((s) => s.symbol_id)).toEqual(['src/greeter.ts::Greeter.greet#method']);
    expect((await cat.lookup('Greeter.greet')).map((s) => s.symbol_id)).toEqual(['src/greeter.ts::Greeter.greet#method']);
    expect((await cat.lookup('Greeter::greet')).map((s) => s.symbol_id)).toEqual(['src/greeter.ts::Greeter.greet#method']);
    expect((await cat.lookup('lib.shapes.Shape.area')).map((s) => s.symbol_id)).toEqual(['lib/shapes.py::Shape.area#method']);
    expect((await cat.lookup('shapes.total_area')).map((s) => s.symbol_id)).toEqual(['lib/shapes.py::total_area#function']);
    expect((await cat.lookup('area')).map((s) => s.symbol_id).sort()).toEqual(['lib/shapes.py::Circle.area#method', 'lib/shapes.py::Shape.area#method']);
    expect((await cat.lookup('area', { class_name: 'Circle' })).map((s) => s.symbol_id)).toEqual(['lib/shapes.py::Circle.area#method']);
    expect(await cat.lookup('Other.greet')).toEqual([]);
    expect(await cat.lookup('reet')).toEqual([]);
    expect((await cat.lookup('Greeter', { kind: 'interface' })).length).toBe(0);
    expect((await cat.lookup('Greeter', { file_pattern: 'src/**/*.ts' })).length).toBe(1);
    expect((await cat.lookup('Greeter', { language: 'python' })).length).toBe(0);
  });

  it('never answers from a stale file: an edit on disk shows in the next lookup and fileSymbols', async () => {
    const file = path.join(root, 'src/util/strings.ts');
    fs.appendFileSync(file, '\n/** Reverses a string. */\nexport function reverse(s: string): string {\n  return [...s].reverse().join("");\n}\n');
    const hit = await cat.lookup('reverse');
    expect(hit.map((s) => s.symbol_id)).toEqual(['src/util/strings.ts::reverse#function']);
    const syms = await cat.fileSymbols('src/util/strings.ts');
    expect(syms.map((s) => s.name)).toContain('reverse');
    // Renaming a symbol: the old name disappears at once (the stat check, not the watcher).
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('function slugify(', 'function toSlug('));
    expect(await cat.lookup('slugify')).toEqual([]);
    expect((await cat.lookup('toSlug')).length).toBe(1);
  });

  it('the watcher catalogs created files and forgets deleted ones', async () => {
    const created = path.join(root, 'src/fresh/made.ts');
    fs.mkdirSync(path.dirname(created), { recursive: true });
    fs.writeFileSync(created, 'export function madeLater(): number {\n  return 1;\n}\n');
    await expect
      .poll(
        async () => {
          await cat.settled();
          return cat.files().has('src/fresh/made.ts');
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    expect((await cat.lookup('madeLater')).map((s) => s.symbol_id)).toEqual(['src/fresh/made.ts::madeLater#function']);
    fs.rmSync(created);
    await expect
      .poll(
        async () => {
          await cat.settled();
          return cat.files().has('src/fresh/made.ts');
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(false);
    expect(await cat.lookup('madeLater')).toEqual([]);
  });

  it('answers a file the walk leaves out when asked by name, without adding it to the index', async () => {
    const skipped = path.join(root, 'build/gen.ts'); // build/ is a skipped directory
    fs.mkdirSync(path.dirname(skipped), { recursive: true });
    fs.writeFileSync(skipped, 'export function genHelper(): number {\n  return 2;\n}\n');
    const syms = await cat.fileSymbols('build/gen.ts');
    expect(syms.map((s) => s.name)).toEqual(['genHelper']);
    expect(cat.files().has('build/gen.ts')).toBe(false);
    expect(await cat.lookup('genHelper')).toEqual([]);
    fs.rmSync(path.dirname(skipped), { recursive: true });
  });

  it('refuses ids whose path leaves the workspace or names a secret', async () => {
    await expect(cat.byId('../outside.ts::x#function')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    await expect(cat.byId('.env::x#variable')).rejects.toMatchObject({ code: 'SECRET_FILE' });
    await expect(cat.byId('not-an-id')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await cat.byId('src/greeter.ts::Nope#class')).toBeUndefined();
  });
});

describe('persistence', () => {
  it('a restart reloads the catalog and parses again only the files whose hash changed', async () => {
    await cat.close();
    const before = (await cat.all()).map((s) => s.symbol_id).sort();
    expect(fs.existsSync(path.join(cacheDir, 'workspaces', (await gateway.workspaceFor(root)).id, 'index.db'))).toBe(true);
    // Same bytes, new mtime: the hash decides, nothing is re-asked.
    const touched = path.join(root, 'src/greeter.ts');
    fs.utimesSync(touched, new Date(), new Date(Date.now() + 5000));

    const g2 = await Gateway.create({ root, cacheDir });
    try {
      const c2 = (await g2.openWorkspace(root)).catalog;
      // What is counted is what a rebuild re-asks: with the watcher on, the watcher's own re-catalog of
      // the edit below could run beside the build's and ask the server a second time (seen once under load).
      c2.configure({ watch: false });
      await c2.build();
      expect((await c2.all()).map((s) => s.symbol_id).sort()).toEqual(before);
      expect(g2.context.broker.existing()).toHaveLength(0); // no server was even started

      // One changed file: parsed again from its tree — its server is asked for no documentSymbol at all
      fs.appendFileSync(path.join(root, 'src/café.ts'), '\nexport function latte(): string {\n  return "☕";\n}\n');
      const session = await g2.context.broker.sessionFor(path.join(root, 'src/café.ts'), root);
      const asked: string[] = [];
      session.onTrace((e) => {
        if (e.direction === 'send' && e.method === 'textDocument/documentSymbol') asked.push(JSON.stringify(e.payload));
      });
      await c2.build();
      session.onTrace(undefined);
      expect(asked).toEqual([]);
      expect((await c2.lookup('latte')).length).toBe(1);
    } finally {
      await g2.close();
    }
  });
});
