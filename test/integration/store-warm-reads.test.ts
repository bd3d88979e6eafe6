/**
 * A restarted gateway answers from the workspace database: the index holds the files' stamps, and a
 * symbol by id, a name and a file's outline read only the files they need (the index's resident
 * count: files whose symbols are in memory). Edits and removals after the restart reach the
 * answers and the database, and a third start sees them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { WorkspaceCatalog } from '../../src/catalog/catalog.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES } from '../helpers/gateway.js';

const MODULES = 60;
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-warm-reads-')));
const root = path.join(tmp, 'ts-app');
const cacheDir = path.join(tmp, 'cache');
const open: Gateway[] = [];

function moduleText(i: number, cls = `Widget${i}`): string {
  return `export class ${cls} {\n  handle(n: number): number {\n    return n + ${i};\n  }\n}\n\nexport function make${i}(): ${cls} {\n  return new ${cls}();\n}\n`;
}

async function start(): Promise<WorkspaceCatalog> {
  const before = process.env.LSPGATE_SERVER_START;
  process.env.LSPGATE_SERVER_START = 'on-demand';
  const gateway = await Gateway.create({ root, cacheDir }).finally(() => {
    if (before === undefined) delete process.env.LSPGATE_SERVER_START;
    else process.env.LSPGATE_SERVER_START = before;
  });
  open.push(gateway);
  return (await gateway.openWorkspace(root)).catalog as WorkspaceCatalog;
}

async function stop(): Promise<void> {
  await open.pop()?.close();
}

afterAll(async () => {
  while (open.length) await stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a warm restart reads symbols from the workspace database', () => {
  it('answers by id, by name and by file without loading every file, and stays right after edits and removals', async () => {
    fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
    for (let i = 0; i < MODULES; i++) fs.writeFileSync(path.join(root, `src/gen${i}.ts`), moduleText(i));
    const cold = await start();
    await cold.build();
    const coldStatus = cold.status();
    const coldHandles = (await cold.lookup('handle')).map((s) => s.symbol_id);
    expect(coldHandles).toHaveLength(MODULES);
    await stop();

    const warm = await start();
    await warm.build();
    expect(warm.status()).toMatchObject({ files: coldStatus.files, symbols: coldStatus.symbols });
    // stamps only: no file's symbols were read to answer the status or to check the files
    expect(warm.index.resident).toBe(0);
    const byId = await warm.byId('src/gen7.ts::Widget7#class');
    expect(byId).toMatchObject({ name: 'Widget7', file: 'src/gen7.ts', kind: 'class' });
    const made = await warm.lookup('make12');
    expect(made.map((s) => s.symbol_id)).toEqual(['src/gen12.ts::make12#function']);
    const outline = await warm.fileSymbols('src/util/strings.ts');
    expect(outline.map((s) => s.name)).toContain('formatName');
    // the three files read, not the workspace's
    expect(warm.index.resident).toBeLessThanOrEqual(3);
    expect(warm.index.files.size).toBeGreaterThan(MODULES);
    // a name every module declares reads those modules, in the order the catalog holds them
    expect((await warm.lookup('handle')).map((s) => s.symbol_id).sort()).toEqual([...coldHandles].sort());

    // an edit renames a class, a removal takes a module away
    fs.writeFileSync(path.join(root, 'src/gen3.ts'), moduleText(3, 'Gadget3'));
    fs.rmSync(path.join(root, 'src/gen4.ts'));
    await warm.refresh(['src/gen3.ts', 'src/gen4.ts']);
    expect(await warm.lookup('Widget3')).toEqual([]);
    expect((await warm.lookup('Gadget3')).map((s) => s.file)).toEqual(['src/gen3.ts']);
    expect(await warm.byId('src/gen4.ts::Widget4#class')).toBeUndefined();
    expect(await warm.lookup('make4')).toEqual([]);
    expect(await warm.lookup('handle')).toHaveLength(MODULES - 1);
    const edited = warm.status();
    expect(edited.files).toBe(coldStatus.files - 1);
    await stop();

    // what the database holds after the edits is what a third start answers
    const third = await start();
    await third.build();
    expect(third.status()).toMatchObject({ files: edited.files, symbols: edited.symbols });
    expect((await third.lookup('Gadget3')).map((s) => s.symbol_id)).toEqual(['src/gen3.ts::Gadget3#class']);
    expect(await third.lookup('Widget3')).toEqual([]);
    expect(await third.lookup('make4')).toEqual([]);
    expect((await third.lookup('handle')).map((s) => s.file)).not.toContain('src/gen4.ts');
    expect(third.index.resident).toBeLessThanOrEqual(MODULES);
  });
});
