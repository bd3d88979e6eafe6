/**
 * `undo` trusts an undo record only as recovery trusts a journal (record-vetting.ts). Records planted
 * in the workspace's records folder — writable by others, a backup outside the cache through a
 * symlinked backup folder, a target in `.git/hooks` (with a backup carrying u+x: the undo would have
 * created an executable hook), a removed file's mode 0755, another root — are each set aside, the
 * reason in the answer, and never acted on; the genuine record under them is undone, its file created
 * without execute bits (its backup has none). No language server is needed: the workspace is plain
 * files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureGateway } from '../helpers/gateway.js';
import { type Plant, plantRecord, PLANTS, recordsFolder } from '../helpers/planted-records.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-undo-planted-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function world(name: string) {
  const root = path.join(tmp, name, 'root');
  const cache = path.join(tmp, name, 'cache');
  const outside = path.join(tmp, name, 'outside');
  for (const d of [path.join(root, '.git/hooks'), path.join(root, 'scripts'), outside]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(root, 'README.md'), '# plain\n');
  fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
  const gateway = await Gateway.create({ root, cacheDir: cache });
  afterAll(() => gateway.close());
  return { fx: fixtureGateway(gateway, root, cache), root, cache, outside };
}

describe('undo: planted records are set aside, never acted on', () => {
  it('each hostile record alone: refused with the reason, the target never written, the record moved aside', async () => {
    const { fx, root, cache, outside } = await world('alone');
    for (const kind of PLANTS.filter((k): k is Exclude<Plant, 'genuine'> => k !== 'genuine')) {
      const p = plantRecord(cache, root, kind, outside);
      const err = await fx.runError('undo');
      expect([kind, err.code]).toEqual([kind, 'INVALID_INPUT']);
      expect(err.message).toMatch(/set aside, nothing of it restored/);
      expect(fs.existsSync(p.target)).toBe(false);
      expect(fs.existsSync(p.record)).toBe(false);
    }
    expect(fs.readdirSync(path.join(root, '.git/hooks'))).toEqual([]);
    const aside = fs.readdirSync(path.join(cache, 'records-set-aside'));
    expect(aside).toHaveLength(PLANTS.length - 1);
  });

  it('a genuine record under planted ones: the planted are set aside (said in the warnings), the genuine one undone without execute bits', async () => {
    const { fx, root, cache, outside } = await world('mixed');
    const good = plantRecord(cache, root, 'genuine', outside, 1);
    const hook = plantRecord(cache, root, 'target-in-git', outside, 2);
    const exec = plantRecord(cache, root, 'mode-exec', outside, 3);
    const r = await fx.run('undo');
    expect(r.operation).toBe('move_file');
    const warnings = ((r._meta as { warnings?: string[] }).warnings ?? []).join('\n');
    expect(warnings).toMatch(/post-commit.*inside \.git \(VCS or tool internals\)/);
    expect(warnings).toMatch(/mode 755 has bits lspgate never records/);
    expect(fs.readFileSync(good.target, 'utf8')).toBe(good.restored);
    expect(fs.statSync(good.target).mode & 0o111).toBe(0);
    for (const p of [hook, exec]) expect(fs.existsSync(p.target)).toBe(false);
    expect(fs.existsSync(good.record.replace('.applied.json', '.undone.json'))).toBe(true);
    expect(fs.readdirSync(recordsFolder(cache, root)).filter((n) => /target-in-git|mode-exec/.test(n) && n.endsWith('.json'))).toEqual([]);
  });
});
