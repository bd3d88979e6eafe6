import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { faultEntry } from '../../fixtures/fault-server/entry.js';
import { alive, groupMembers, processGroup, waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');
const tmp: string[] = [];
function tree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-route-')));
  tmp.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}
describe('broker routing and session lifecycle', () => {
  let broker: SessionBroker | undefined;
  afterEach(async () => {
    await broker?.stop();
    broker = undefined;
    for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('routes by extension and highest priority; disabled entries never serve', () => {
    const root = tree({ 'a.fault': '' });
    const low = faultEntry([], { id: 'low', priority: 1 });
    const high = faultEntry([], { id: 'high', priority: 5 });
    const off = faultEntry([], { id: 'off', priority: 9, enabled: false });
    broker = createBroker({ servers: [low, high, off], cacheDir: root, logger });
    expect(broker.route(path.join(root, 'a.fault'), root)?.entry.id).toBe('high');
    expect(broker.route(path.join(root, 'a.FAULT'), root)?.entry.id).toBe('high');
    expect(broker.route(path.join(root, 'a.txt'), root)).toBeUndefined();
  });

  it('default rootStrategy workspace: one root (the workspace) for every file, whatever markers sit below', () => {
    const root = tree({
      'pkg/a/tsconfig.json': '{}',
      'pkg/a/src/x.fault': '',
      'pkg/b/package.json': '{}',
      'pkg/b/y.fault': '',
      'go.work': '',
      'm/go.mod': '',
      'm/z.fault': '',
    });
    const e = faultEntry([], { rootMarkers: ['go.work', 'tsconfig.json', 'package.json', 'go.mod'] });
    expect(e.rootStrategy).toBe('workspace');
    broker = createBroker({ servers: [e], cacheDir: root, logger });
    for (const f of ['pkg/a/src/x.fault', 'pkg/b/y.fault', 'm/z.fault']) expect(broker.route(path.join(root, f), root)?.root).toBe(root);
    const inner = path.join(root, 'pkg/a');
    expect(broker.route(path.join(inner, 'src/x.fault'), inner)?.root).toBe(inner);
  });

  it('nearest-marker: root = nearest marker directory inside the workspace; earlier markers win in one directory', () => {
    const root = tree({
      'pkg/a/tsconfig.json': '{}',
      'pkg/a/package.json': '{}',
      'pkg/a/src/deep/x.fault': '',
      'pkg/b/package.json': '{}',
      'pkg/b/y.fault': '',
      'loose/z.fault': '',
    });
    const e = faultEntry([], { rootMarkers: ['tsconfig.json', 'package.json'], rootStrategy: 'nearest-marker' });
    broker = createBroker({ servers: [e], cacheDir: root, logger });
    expect(broker.route(path.join(root, 'pkg/a/src/deep/x.fault'), root)?.root).toBe(path.join(root, 'pkg/a'));
    expect(broker.route(path.join(root, 'pkg/b/y.fault'), root)?.root).toBe(path.join(root, 'pkg/b'));
    expect(broker.route(path.join(root, 'loose/z.fault'), root)?.root).toBe(root);
    // never above the workspace root, even if a marker sits there
    const inner = path.join(root, 'pkg/a/src');
    expect(broker.route(path.join(inner, 'deep/x.fault'), inner)?.root).toBe(inner);
  });

  it('nearest-marker, gopls style: a workspace marker (go.work) up the chain beats a nearer go.mod', () => {
    const root = tree({ 'go.work': 'go 1.23', 'mod1/go.mod': 'module m1', 'mod1/pkg/a.fault': '', 'solo/go.mod': 'module s' });
    const e = faultEntry([], { rootMarkers: ['go.work', 'go.mod'], workspaceMarkers: ['go.work'], rootStrategy: 'nearest-marker' });
    broker = createBroker({ servers: [e], cacheDir: root, logger });
    expect(broker.route(path.join(root, 'mod1/pkg/a.fault'), root)?.root).toBe(root);
    const noWork = tree({ 'mod1/go.mod': 'module m1', 'mod1/pkg/a.fault': '' });
    expect(broker.route(path.join(noWork, 'mod1/pkg/a.fault'), noWork)?.root).toBe(path.join(noWork, 'mod1'));
  });

  it('UNSUPPORTED_LANGUAGE for unclaimed files; unknown server ids are INVALID_INPUT', async () => {
    const root = tree({ 'a.txt': '' });
    broker = createBroker({ servers: [faultEntry([])], cacheDir: root, logger });
    const e = await caught(broker.sessionFor(path.join(root, 'a.txt'), root));
    expect(e.code).toBe('UNSUPPORTED_LANGUAGE');
    expect(e.details?.supportedExtensions).toEqual(['.fault']);
    expect((await caught(broker.session('nope', root))).code).toBe('INVALID_INPUT');
  });

  it('default: two packages of one workspace share one session', async () => {
    const root = tree({ 'p1/package.json': '{}', 'p1/a.fault': '', 'p2/package.json': '{}', 'p2/b.fault': '' });
    broker = createBroker({ servers: [faultEntry([], { rootMarkers: ['package.json'] })], cacheDir: root, logger });
    const a = await broker.sessionFor(path.join(root, 'p1/a.fault'), root);
    const b = await broker.sessionFor(path.join(root, 'p2/b.fault'), root);
    expect(b).toBe(a);
    expect(broker.info().map((i) => i.root)).toEqual([root]);
  });

  it('concurrent callers share one start; two roots get two sessions (nearest-marker)', async () => {
    const root = tree({ 'p1/package.json': '{}', 'p1/a.fault': '', 'p2/package.json': '{}', 'p2/b.fault': '' });
    broker = createBroker({ servers: [faultEntry([], { rootMarkers: ['package.json'], rootStrategy: 'nearest-marker' })], cacheDir: root, logger });
    const a = path.join(root, 'p1/a.fault');
    const same = await Promise.all(Array.from({ length: 8 }, () => broker!.sessionFor(a, root)));
    expect(new Set(same).size).toBe(1);
    expect(same[0]!.generation).toBe(1);
    const other = await broker.sessionFor(path.join(root, 'p2/b.fault'), root);
    expect(other).not.toBe(same[0]);
    expect(
      broker
        .info()
        .map((i) => path.relative(root, i.root))
        .sort(),
    ).toEqual(['p1', 'p2']);
    const pids = broker.existing().map((s) => processGroup(s.pid!));
    await broker.stop();
    expect(await waitFor(() => pids.every((p) => groupMembers(p).length === 0 && !alive(p)), 5000)).toBe(true);
    expect((await caught(broker.sessionFor(a, root))).code).toBe('SERVER_FAILED');
  });

  it('idle sessions are shut down; the next call starts a new one', async () => {
    const root = tree({ 'a.fault': '' });
    broker = createBroker({ servers: [faultEntry([], { timeouts: { idleMs: 300 } })], cacheDir: root, logger });
    const file = path.join(root, 'a.fault');
    const s1 = await broker.sessionFor(file, root);
    const pid = s1.pid!;
    expect(await waitFor(() => s1.state === 'stopped', 5000)).toBe(true);
    expect(await waitFor(() => !alive(pid), 5000)).toBe(true);
    expect(broker.existing()).toHaveLength(0);
    const s2 = await broker.sessionFor(file, root);
    expect(s2).not.toBe(s1);
    expect(s2.state).toBe('indexing'); // first-reply readiness: ready after its first documentSymbol
    expect(s2.pid).not.toBe(pid);
  });
});
