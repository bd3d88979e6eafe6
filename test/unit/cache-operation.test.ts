/**
 * The operation cache's freshness proof on its own: session stamps (ready, generation, response
 * cache stamp), the workspace catalog's version and file stamps, each able to make an entry unusable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DependencyRecorder, OperationCache } from '../../src/cache/operation-cache.js';
import { cloneJson, ResponseCache } from '../../src/cache/response-cache.js';
import { noteFileAccess, noteSessionUse, recordDependencies, type StampedSession } from '../../src/util/dependency-scope.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-opcache-unit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

class Session implements StampedSession {
  generation = 1;
  state = 'ready';
  constructor(
    private readonly cache: ResponseCache,
    readonly scope: string,
  ) {}
  cacheStamp(): string {
    return this.cache.stamp(this.scope);
  }
}

/** A workspace catalog as the operation cache sees it. */
const catalog = { version: 0 };

/** Records one "call" that touched `files` through `session`, stores its result under `key`. */
function record(cache: OperationCache, key: string, session: Session, files: string[], cat = catalog): void {
  const rec = new DependencyRecorder(cat);
  recordDependencies(rec, () => {
    noteSessionUse(session);
    for (const f of files) noteFileAccess(f);
  });
  cache.set(key, { bodyJson: '{"answer":1}', meta: {}, tokensSaved: 0 }, rec);
}

describe('operation cache stamps', () => {
  const rc = new ResponseCache({ maxBytes: 1 << 20 });
  const file = path.join(dir, 'a.ts');
  fs.writeFileSync(file, 'export const a = 1;\n');

  it('serves an entry while nothing moved', () => {
    const oc = new OperationCache(1 << 20);
    record(oc, 'k', new Session(rc, 's1'), [file]);
    expect(oc.get('k')?.bodyJson).toBe('{"answer":1}');
    expect(oc.get('k')).toBeDefined();
  });

  it('drops it when a file it read changed on disk (size, mtime or inode)', () => {
    const oc = new OperationCache(1 << 20);
    record(oc, 'k', new Session(rc, 's1'), [file]);
    fs.writeFileSync(file, 'export const a = 22;\n');
    expect(oc.get('k')).toBeUndefined();
    expect(oc.stats().stale).toBe(1);
  });

  it('drops it when a file that did not exist appears', () => {
    const oc = new OperationCache(1 << 20);
    const later = path.join(dir, 'later.ts');
    record(oc, 'k', new Session(rc, 's1'), [later]);
    expect(oc.get('k')).toBeDefined();
    fs.writeFileSync(later, '');
    expect(oc.get('k')).toBeUndefined();
  });

  it('drops it on a file change seen by the server, a clear, a restart or a server not ready', () => {
    const oc = new OperationCache(1 << 20);
    const s = new Session(rc, 's2');
    record(oc, 'epoch', s, []);
    rc.bumpEpoch('s2');
    expect(oc.get('epoch')).toBeUndefined();
    record(oc, 'other-scope', s, []);
    rc.bumpEpoch('s-other');
    expect(oc.get('other-scope')).toBeDefined();
    record(oc, 'clear', s, []);
    rc.clear();
    expect(oc.get('clear')).toBeUndefined();
    record(oc, 'restart', s, []);
    s.generation++;
    expect(oc.get('restart')).toBeUndefined();
    record(oc, 'indexing', s, []);
    s.state = 'indexing';
    expect(oc.get('indexing')).toBeUndefined();
  });

  it("drops it when a file of its workspace's catalog is re-cataloged, not another workspace's", () => {
    const oc = new OperationCache(1 << 20);
    const other = { version: 0 };
    record(oc, 'k', new Session(rc, 's3'), []);
    other.version++;
    expect(oc.get('k')).toBeDefined();
    catalog.version++;
    expect(oc.get('k')).toBeUndefined();
  });

  it('does not store a result whose session moved while it was computed', () => {
    const oc = new OperationCache(1 << 20);
    const s = new Session(rc, 's4');
    const rec = new DependencyRecorder(catalog);
    recordDependencies(rec, () => {
      noteSessionUse(s);
      rc.bumpEpoch('s4'); // a file changed while the answer was being built
    });
    oc.set('k', { bodyJson: '{}', meta: {}, tokensSaved: 0 }, rec);
    expect(oc.stats().stored).toBe(0);
    expect(oc.get('k')).toBeUndefined();
  });

  it('records only while recording', () => {
    const rec = new DependencyRecorder(catalog);
    noteFileAccess(file);
    recordDependencies(rec, () => noteFileAccess(file));
    noteFileAccess(path.join(dir, 'after.ts'));
    expect([...rec.files.keys()]).toEqual([file]);
  });

  it('keeps the records of concurrent calls apart, across awaits', async () => {
    const a = new DependencyRecorder(catalog);
    const b = new DependencyRecorder(catalog);
    const other = path.join(dir, 'b.ts');
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await Promise.all([
      recordDependencies(a, async () => {
        await tick();
        noteFileAccess(file);
      }),
      recordDependencies(b, async () => {
        noteFileAccess(other);
        await tick();
      }),
    ]);
    expect([...a.files.keys()]).toEqual([file]);
    expect([...b.files.keys()]).toEqual([other]);
  });
});

describe('cloneJson', () => {
  it('copies deeply, drops undefined, keeps __proto__ as data', () => {
    const src = JSON.parse('{"a":[{"b":1}],"__proto__":{"polluted":true},"c":null}') as Record<string, unknown>;
    const copy = cloneJson(src);
    expect(copy).toEqual(src);
    expect(copy.a).not.toBe(src.a);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(copy, '__proto__')).toBe(true);
    expect(cloneJson({ x: undefined, y: 1 })).toEqual({ y: 1 });
  });
});
