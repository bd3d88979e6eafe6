import { describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';

import { LspgateError } from '../../src/errors/errors.js';
import { configurationSection } from '../../src/lsp/client-handlers.js';
import { FrameGuard } from '../../src/lsp/frame-guard.js';
import { ReadinessTracker } from '../../src/lsp/readiness.js';
import { RestartPolicy } from '../../src/lsp/restart-policy.js';
import { fromResponseError } from '../../src/lsp/rpc-errors.js';
import { Semaphore } from '../../src/lsp/semaphore.js';
import { StderrRing } from '../../src/lsp/stderr-ring.js';

describe('workspace/configuration', () => {
  const settings = { python: { analysis: { autoSearchPaths: true } }, gopls: { x: 0 } };
  it('walks dotted sections; null when absent', () => {
    expect(configurationSection(settings, 'python.analysis')).toEqual({ autoSearchPaths: true });
    expect(configurationSection(settings, 'python.analysis.autoSearchPaths')).toBe(true);
    expect(configurationSection(settings, 'gopls.x')).toBe(0);
    expect(configurationSection(settings, 'python.nope')).toBeNull();
    expect(configurationSection(settings, 'python.analysis.autoSearchPaths.deeper')).toBeNull();
    expect(configurationSection(settings, undefined)).toBe(settings);
  });
});

describe('LSP error codes', () => {
  const map = (code: number) => fromResponseError(new ResponseError(code, 'same message for all'), 's', 'm').code;
  it('sorts by code, never by message', () => {
    expect(map(-32601)).toBe('NOT_SUPPORTED');
    expect(map(-32801)).toBe('CONTENT_MODIFIED');
    expect(map(-32802)).toBe('CONTENT_MODIFIED');
    expect(map(-32800)).toBe('CONTENT_MODIFIED');
    expect(map(-32603)).toBe('INTERNAL');
    expect(fromResponseError(new ResponseError(-32603, 'x'), 's', 'm').details?.lspCode).toBe(-32603);
  });
});

describe('ReadinessTracker', () => {
  it('progress: ready when the matching progress ends and nothing else is open', () => {
    const changes: boolean[] = [];
    const t = new ReadinessTracker({ kind: 'progress', titlePattern: 'Initializing', quietMs: 60_000 }, (r) => changes.push(r));
    t.started();
    t.progress('a', { kind: 'begin', title: 'Initializing JS/TS language features' });
    t.progress('b', { kind: 'begin', title: 'Other work' });
    t.progress('a', { kind: 'end' });
    expect(t.isReady).toBe(false);
    expect(t.openTitles()).toEqual(['Other work']);
    t.progress('b', { kind: 'end' });
    expect(t.isReady).toBe(true);
    // a new matching progress puts it back to indexing
    t.progress('c', { kind: 'begin', title: 'Initializing again' });
    expect(t.isReady).toBe(false);
    expect(changes).toEqual([true, false]);
    t.dispose();
  });

  it('progress: ready after quietMs without any progress', async () => {
    const t = new ReadinessTracker({ kind: 'progress', quietMs: 20 }, () => undefined);
    t.started();
    expect(await t.wait(2000)).toBe(true);
  });

  it('progress: the first didOpen withdraws a quiet-period readiness until the project load ends', async () => {
    const t = new ReadinessTracker({ kind: 'progress', titlePattern: 'Initializing', quietMs: 10, openQuietMs: 60_000 }, () => undefined);
    t.started();
    expect(await t.wait(2000)).toBe(true); // nothing open: the quiet period says ready
    t.documentOpened();
    expect(t.isReady).toBe(false); // tsserver loads the project only now; its progress may come late
    expect(await t.wait(50)).toBe(false);
    t.progress('p', { kind: 'begin', title: 'Initializing JS/TS language features' });
    t.documentOpened(); // later opens change nothing once the load was seen
    t.progress('p', { kind: 'end' });
    expect(t.isReady).toBe(true);
    t.documentOpened();
    expect(t.isReady).toBe(true);
    t.dispose();
  });

  it('progress: after the first didOpen, openQuietMs without any progress means ready', async () => {
    const t = new ReadinessTracker({ kind: 'progress', titlePattern: 'Initializing', quietMs: 10, openQuietMs: 30 }, () => undefined);
    t.started();
    t.documentOpened();
    expect(t.isReady).toBe(false);
    expect(await t.wait(2000)).toBe(true);
    t.dispose();
  });

  it('notification: start then end method', async () => {
    const t = new ReadinessTracker({ kind: 'notification', method: 'indexingEnded', startMethod: 'indexingStarted', quietMs: 20 }, () => undefined);
    t.started();
    t.notification('indexingStarted');
    expect(await t.wait(100)).toBe(false);
    t.notification('indexingEnded');
    expect(t.isReady).toBe(true);
  });

  it('first-reply: only a documentSymbol answer makes it ready', async () => {
    const t = new ReadinessTracker({ kind: 'first-reply' }, () => undefined);
    t.started();
    expect(await t.wait(30)).toBe(false);
    t.firstReply();
    expect(t.isReady).toBe(true);
  });
});

describe('RestartPolicy', () => {
  it('fails after maxCrashes inside the window only', () => {
    let now = 0;
    const p = new RestartPolicy(3, 1000, () => now);
    expect(p.recordCrash('a')).toBe(false);
    now = 600;
    expect(p.recordCrash('b')).toBe(false);
    now = 1500; // the first crash left the window
    expect(p.recordCrash('c')).toBe(false);
    now = 1600;
    expect(p.recordCrash('d')).toBe(true);
    expect(p.recent().map((c) => c.reason)).toEqual(['b', 'c', 'd']);
  });
});

describe('FrameGuard', () => {
  function run(input: Buffer[], max = 100): { out: string; violation: string | undefined } {
    let violation: string | undefined;
    const g = new FrameGuard({ maxMessageBytes: max, onViolation: (r) => (violation = r) });
    const chunks: Buffer[] = [];
    g.on('data', (c: Buffer) => chunks.push(c));
    for (const b of input) g.write(b);
    return { out: Buffer.concat(chunks).toString('utf8'), violation };
  }
  const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  it('passes well-formed frames split anywhere, counting bytes not characters', () => {
    const text = frame('{"a":"•·é"}') + frame('{}');
    const bytes = Buffer.from(text);
    const parts = [bytes.subarray(0, 5), bytes.subarray(5, 23), bytes.subarray(23)];
    expect(run(parts)).toEqual({ out: text, violation: undefined });
  });

  it('stops at a bad header, a missing or oversized Content-Length', () => {
    expect(run([Buffer.from('hello\r\n' + frame('{}'))]).violation).toMatch(/not a header line/);
    expect(run([Buffer.from('Content-Type: x\r\n\r\n{}')]).violation).toMatch(/without Content-Length/);
    const huge = run([Buffer.from('Content-Length: 999999999\r\n\r\nxxxx')]);
    expect(huge.violation).toMatch(/exceeds the 100-byte/);
    expect(huge.out).toBe('');
    expect(run([Buffer.alloc(10_000, 0x61)]).violation).toMatch(/header longer/);
  });
});

describe('StderrRing', () => {
  it('is bounded in lines, bytes and line length', () => {
    const r = new StderrRing(3, 1000, 10);
    r.push('a\nb\nc\nd\n');
    expect(r.tail()).toEqual(['b', 'c', 'd']);
    r.push('x'.repeat(50));
    expect(r.tail().at(-1)).toBe('xxxxxxxxxx …[cut]');
  });
});

describe('Semaphore', () => {
  it('queues beyond the limit, times out queued waiters, rejects past the queue bound', async () => {
    const s = new Semaphore(1, 1);
    const r1 = await s.acquire(1000);
    const waiting = s.acquire(50);
    await expect(s.acquire(50)).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    await expect(waiting).rejects.toBeInstanceOf(LspgateError);
    r1();
    const r2 = await s.acquire(10);
    expect(s.inFlight).toBe(1);
    r2();
    r2(); // idempotent
    expect(s.inFlight).toBe(0);
  });

  it('interactive first: background never takes the last slot, queues behind interactive waiters, and yields to interactive work', async () => {
    const s = new Semaphore(3);
    const order: string[] = [];
    const take = (name: string, background: boolean) =>
      s.acquire(5000, undefined, background).then((release) => {
        order.push(name);
        return release;
      });
    const b1 = await take('b1', true);
    const b2 = await take('b2', true);
    // the third slot stays free for an interactive request: b3 waits, i1 goes at once
    const b3 = take('b3', true);
    const i1 = await take('i1', false);
    expect(order).toEqual(['b1', 'b2', 'i1']);
    // all slots busy: a later interactive waiter is granted before the earlier background one
    const i2 = take('i2', false);
    b1();
    const releaseI2 = await i2;
    expect(order).toEqual(['b1', 'b2', 'i1', 'i2']);
    // while interactive work runs, background gets a slot only with no other background in flight
    b2();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['b1', 'b2', 'i1', 'i2', 'b3']);
    const b4 = take('b4', true);
    i1();
    releaseI2();
    (await b3)();
    (await b4)();
    expect(order.at(-1)).toBe('b4');
    expect(s.inFlight).toBe(0);
  });

  it('background units: run freely while nothing interactive is active, one at a time while it is and a moment after', async () => {
    const s = new Semaphore(3, 100, 'x', 40);
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const unit = (name: string) =>
      s.unit(() => {
        started.push(name);
        return new Promise<void>((resolve) => gates.set(name, resolve));
      });
    const a = unit('a');
    const b = unit('b');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b']); // no interactive work: units run side by side
    const release = await s.acquire(1000); // an interactive request in flight
    const c = unit('c');
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toEqual(['a', 'b']);
    expect(s.unitsWaiting).toBe(1);
    gates.get('a')!();
    gates.get('b')!();
    await Promise.all([a, b]);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c']); // one unit at a time still runs beside interactive work
    const d = unit('d');
    release();
    // right after the interactive request the quiet period still holds d behind c...
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c']);
    // ...and once it is over d starts although c still runs
    await new Promise((r) => setTimeout(r, 80));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    gates.get('c')!();
    gates.get('d')!();
    await Promise.all([c, d]);
  });
});
