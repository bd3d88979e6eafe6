// How an operation is told its target: exactly one of a symbol, a symbol_id, or a file with its
// line; a line given without its file is named as such, through every operation that takes one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-target-'));
fs.writeFileSync(path.join(dir, 'a.ts'), 'export function f(): number {\n  return 1;\n}\n');
const gateway = await Gateway.create({ root: dir, cacheDir: path.join(dir, '.cache') });
afterAll(async () => {
  await gateway.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const LINE_WITHOUT_FILE = '`line` and `column` go with `file`: give the file they are in, or a symbol or symbol_id instead';

describe('a target named by a line without its file', () => {
  it.each(['find_references', 'find_definition', 'get_symbol', 'find_callers'])('%s says the line needs its file', async (op) => {
    await expect(gateway.run(op, { line: 3 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: LINE_WITHOUT_FILE });
  });

  it('and two targets at once, or none, are still "give exactly one"', async () => {
    await expect(gateway.run('find_references', { symbol: 'f', file: 'a.ts', line: 1 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'give exactly one of: symbol, symbol_id, or file + line (+ column)',
    });
    await expect(gateway.run('get_symbol', {})).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('give exactly one of') });
  });
});
