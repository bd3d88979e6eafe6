/**
 * The caches behind a warm find_definition (typescript-language-server) never answer
 * from what a file was. Each file model is kept per cached documentSymbol answer and content,
 * a location's text per content, and the text of a library file outside the root (not open in
 * the server) per (mtime, size, inode): an edit on disk and a file replaced by a symlink are seen
 * by the next call, and an input file that became a symlink out of the root is refused even
 * after every cache was warm with it. get_file_outline's outline, kept per file model, follows an
 * edit on disk.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { removeDir, tempDir } from '../helpers/spawn.js';

const CANARY = 'WARM-CACHE-OUTSIDE-CANARY';
let tmp: string;
let root: string;
let gateway: Gateway;
const main = ["import { depFn } from 'dep';", "import { greet } from './lib.js';", '', 'export const a = depFn(1);', "export const b = greet('x');", ''].join(
  '\n',
);
const lib = ['export function greet(name: string): string {', "  return 'hi ' + name;", '}', ''].join('\n');
const dep = (comment: string) => `// ${comment}\nexport declare function depFn(x: number): number;\n`;

interface Def {
  name: string;
  file: string;
  line: number;
  end_line: number;
  external?: boolean;
  symbol_id?: string;
  preview?: { lines: string[] };
}

beforeAll(async () => {
  tmp = fs.realpathSync(tempDir());
  root = path.join(tmp, 'proj', 'app');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  // A dependency outside the root (module resolution walks up to proj/node_modules): library code, quoted from disk.
  const depDir = path.join(tmp, 'proj', 'node_modules', 'dep');
  fs.mkdirSync(depDir, { recursive: true });
  fs.writeFileSync(path.join(depDir, 'package.json'), '{"name":"dep","version":"1.0.0","types":"index.d.ts"}\n');
  fs.writeFileSync(path.join(depDir, 'index.d.ts'), dep('dep version one'));
  fs.writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"module":"nodenext","moduleResolution":"nodenext","noEmit":true}}\n');
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"app","type":"module"}\n');
  fs.writeFileSync(path.join(root, 'src/main.ts'), main);
  fs.writeFileSync(path.join(root, 'src/lib.ts'), lib);
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
});

afterAll(async () => {
  await gateway?.close();
  removeDir(tmp);
});

/** A column on `word` in line `line` of main.ts, moved by `shift` (a new question each time: no operation-cache hit). */
function at(line: number, word: string, shift: number): { file: string; line: number; column: number } {
  const text = main.split('\n')[line - 1]!;
  return { file: 'src/main.ts', line, column: text.indexOf(word) + 1 + (shift % word.length) };
}

async function definitionAt(input: Record<string, unknown>): Promise<Def> {
  const r = await gateway.run('find_definition', { ...input, output_format: 'json' });
  const defs = (r.result as unknown as { definitions: Def[] }).definitions;
  expect(defs).toHaveLength(1);
  return defs[0]!;
}

describe('warm find_definition and get_file_outline caches', () => {
  it('a library file outside the root edited on disk, then replaced by a symlink: the preview is the new text each time', async () => {
    const first = await definitionAt(at(4, 'depFn', 0));
    expect(first).toMatchObject({ external: true, line: 2 });
    expect(first.preview?.lines).toContain('// dep version one');
    expect((await definitionAt(at(4, 'depFn', 1))).preview?.lines).toContain('// dep version one');

    const file = path.join(tmp, 'proj', 'node_modules', 'dep', 'index.d.ts');
    fs.writeFileSync(file, dep('dep version two, edited on disk'));
    const edited = await definitionAt(at(4, 'depFn', 2));
    expect(edited.line).toBe(2);
    expect(edited.preview?.lines).toContain('// dep version two, edited on disk');

    const target = path.join(tmp, 'proj', 'other.d.ts');
    fs.writeFileSync(target, dep('dep version three, behind a symlink'));
    fs.rmSync(file);
    fs.symlinkSync(target, file);
    const linked = await definitionAt(at(4, 'depFn', 3));
    expect(linked.preview?.lines).toContain('// dep version three, behind a symlink');
    expect(JSON.stringify(linked)).not.toContain('version two');
  });

  it('a workspace definition after its file is edited on disk: new line, end line and preview', async () => {
    const first = await definitionAt(at(5, 'greet', 0));
    expect(first).toMatchObject({ name: 'greet', file: 'src/lib.ts', line: 1, end_line: 3, symbol_id: 'src/lib.ts::greet#function' });
    // Warm: the same file model and measured text serve the next question.
    expect(await definitionAt(at(5, 'greet', 1))).toMatchObject({ line: 1, end_line: 3 });

    fs.writeFileSync(
      path.join(root, 'src/lib.ts'),
      ['// moved down one line', 'export function greet(name: string): string {', "  const s = 'hi ';", '  return s + name;', '}', ''].join('\n'),
    );
    // The server learns of the edit from the workspace watcher; until then it may answer the old position.
    let shift = 2;
    let now: Def | undefined;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      now = await definitionAt(at(5, 'greet', shift++));
      if (now.line === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(now).toMatchObject({ name: 'greet', file: 'src/lib.ts', line: 2, end_line: 5, symbol_id: 'src/lib.ts::greet#function' });
    expect(now!.preview?.lines).toContain('// moved down one line');
  });

  it('get_file_outline after its file is edited on disk: the new symbols, not the kept outline', async () => {
    const names = async (depth: number) => {
      const r = await gateway.run('get_file_outline', { file: 'src/lib.ts', depth, output_format: 'json' });
      return (r.result as unknown as { symbols: { name: string; lines: number[] }[] }).symbols.map((s) => `${s.name}@${s.lines.join('-')}`);
    };
    const before = await names(10);
    expect(before).toEqual(['greet@2-5']);
    expect(await names(9)).toEqual(before);
    fs.appendFileSync(path.join(root, 'src/lib.ts'), 'export function wave(): string {\n  return "o/";\n}\n');
    expect(await names(8)).toEqual(['greet@2-5', 'wave@6-8']);
  });

  it('an input file that became a symlink out of the root is refused, warm caches or not', async () => {
    await definitionAt(at(5, 'greet', 3));
    const outside = path.join(tmp, 'outside-main.ts');
    fs.writeFileSync(outside, `// ${CANARY}\n${main}`);
    fs.rmSync(path.join(root, 'src/main.ts'));
    fs.symlinkSync(outside, path.join(root, 'src/main.ts'));
    let code = 'none';
    let text: string;
    try {
      text = JSON.stringify((await gateway.run('find_definition', { ...at(5, 'greet', 4), output_format: 'json' })).result);
    } catch (e) {
      if (!(e instanceof LspgateError)) throw e;
      code = e.code;
      text = `${e.message} ${JSON.stringify(e.details ?? {})}`;
    }
    expect(code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(text).not.toContain(CANARY);
  });
});
