/**
 * A Latin-1 file's byte offsets were computed on its UTF-8 re-encoding, so
 * get_symbol returned the wrong bytes with `content_verified: true`. Such a file is now refused
 * with an encoding error naming the first bad byte; UTF-8 files around it are unaffected.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { removeDir, tempDir } from '../helpers/spawn.js';

let tmp: string;
let gateway: Gateway;

beforeAll(async () => {
  tmp = tempDir();
  const root = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}\n');
  // "é" as the single Latin-1 byte 0xE9
  fs.writeFileSync(path.join(root, 'src/legacy.ts'), Buffer.from('// café\nexport function afterAccent(): number {\n  return 2;\n}\n', 'latin1'));
  fs.writeFileSync(path.join(root, 'src/modern.ts'), '// café\nexport function afterAccentUtf8(): number {\n  return 3;\n}\n');
  gateway = await Gateway.create({ root: fs.realpathSync(root), cacheDir: path.join(tmp, 'cache') });
});

afterAll(async () => {
  await gateway?.close();
  removeDir(tmp);
});

async function errorOf(op: string, input: Record<string, unknown>): Promise<LspgateError | undefined> {
  try {
    await gateway.run(op, input);
    return undefined;
  } catch (e) {
    if (e instanceof LspgateError) return e;
    throw e;
  }
}

describe('a Latin-1 source file', () => {
  it('get_file_outline answers an encoding error naming the byte', async () => {
    const e = await errorOf('get_file_outline', { file: 'src/legacy.ts' });
    expect(e?.code).toBe('INVALID_INPUT');
    expect(e?.message).toMatch(/not UTF-8 text \(invalid byte 0xe9 at offset 6\)/);
  });

  it('is not cataloged with wrong offsets; the UTF-8 file beside it is, with its exact bytes', async () => {
    const hits = (await gateway.run('search_symbols', { query: 'afterAccent', output_format: 'json' })).result as unknown as {
      results: { symbol_id: string }[];
    };
    expect(hits.results.map((r) => r.symbol_id)).toEqual(['src/modern.ts::afterAccentUtf8#function']);
    const sym = (await gateway.run('get_symbol', { symbol_id: 'src/modern.ts::afterAccentUtf8#function', verify: true, output_format: 'json' }))
      .result as unknown as { source: string };
    expect(sym.source.startsWith('export function afterAccentUtf8(): number {')).toBe(true);
  });
});
