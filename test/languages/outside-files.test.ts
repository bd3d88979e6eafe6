/**
 * With typescript-language-server: a definition in a file outside
 * the workspace that is not library code keeps its location but no preview (its text is never
 * read); a library definition (TypeScript's lib.d.ts in node_modules) keeps its preview; a binary
 * file with a source extension is INVALID_INPUT in open_at and get_file_outline.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { errorCode } from '../helpers/errors.js';
import { removeDir, tempDir } from '../helpers/spawn.js';

const CANARY = 'OUTSIDE-PREVIEW-CANARY';
let tmp: string;
let gateway: Gateway;
const main = "import { sib } from '../../sibling/x.js';\n\nexport const a = sib();\nexport const b = Math.max(1, 2);\n";

beforeAll(async () => {
  tmp = tempDir();
  const root = path.join(tmp, 'proj', 'app');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'proj', 'sibling'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'proj', 'sibling', 'x.ts'), `export function sib(): string {\n  return '${CANARY}';\n}\n`);
  fs.writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"module":"nodenext","moduleResolution":"nodenext","noEmit":true}}\n');
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"app","type":"module"}\n');
  fs.writeFileSync(path.join(root, 'src/main.ts'), main);
  fs.writeFileSync(path.join(root, 'src/blob.ts'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 0), Buffer.from('export const x = 1;\n')]));
  gateway = await Gateway.create({ root: fs.realpathSync(root), cacheDir: path.join(tmp, 'cache') });
});

afterAll(async () => {
  await gateway?.close();
  removeDir(tmp);
});

const col = (line: string, word: string) => line.indexOf(word) + 1;

const codeOf = (op: string, input: Record<string, unknown>): Promise<string> => errorCode(gateway.run(op, input));

describe('files outside the workspace and binary files', () => {
  it('a definition in a sibling folder: its location, external, without a preview', async () => {
    const r = await gateway.run('find_definition', { file: 'src/main.ts', line: 3, column: col('export const a = sib();', 'sib'), output_format: 'json' });
    const defs = (r.result as unknown as { definitions: { file: string; external?: boolean; preview?: unknown; line: number }[] }).definitions;
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({ file: path.join(fs.realpathSync(tmp), 'proj', 'sibling', 'x.ts'), external: true, line: 1 });
    expect(defs[0]!.preview).toBeUndefined();
    expect(r.text).not.toContain(CANARY);
    const md = await gateway.run('find_definition', { file: 'src/main.ts', line: 3, column: col('export const a = sib();', 'sib'), output_format: 'markdown' });
    expect(md.text).not.toContain(CANARY);
  });

  it('a definition in library code (lib.d.ts under node_modules) keeps its preview', async () => {
    const r = await gateway.run('find_definition', {
      file: 'src/main.ts',
      line: 4,
      column: col('export const b = Math.max(1, 2);', 'max'),
      output_format: 'json',
    });
    const defs = (r.result as unknown as { definitions: { file: string; external?: boolean; preview?: { lines: string[] } }[] }).definitions;
    expect(defs.length).toBeGreaterThan(0);
    expect(defs.every((d) => d.external && d.file.includes('node_modules'))).toBe(true);
    expect(defs.some((d) => d.preview?.lines.some((l) => l.includes('max(')))).toBe(true);
  });

  it('a binary file with a source extension: INVALID_INPUT in open_at and get_file_outline', async () => {
    expect(await codeOf('open_at', { file: 'src/blob.ts', line: 1 })).toBe('INVALID_INPUT');
    expect(await codeOf('get_file_outline', { file: 'src/blob.ts' })).toBe('INVALID_INPUT');
  });
});
