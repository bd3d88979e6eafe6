import { describe, expect, it } from 'vitest';

import { liveResponseCaches, ResponseCache, responseCacheEnabled } from '../../src/cache/response-cache.js';
import { LspgateError } from '../../src/errors/errors.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ResponseCache', () => {
  it('answers a repeated key from the cache with a fresh copy', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    let calls = 0;
    const fetch = async () => {
      calls++;
      return [{ uri: 'file:///a.ts', line: 3 }];
    };
    const first = await cache.getOrFetch('k', () => true, fetch);
    first.push({ uri: 'mutated', line: 0 });
    const second = await cache.getOrFetch('k', () => true, fetch);
    expect(calls).toBe(1);
    expect(second).toEqual([{ uri: 'file:///a.ts', line: 3 }]);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, stored: 1, entries: 1 });
  });

  it('keeps a null answer but never an error, nor an answer store() refuses', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    await cache.getOrFetch(
      'null',
      () => true,
      async () => null,
    );
    expect(cache.get('null')).toEqual({ value: null });

    const boom = new LspgateError('TIMEOUT', 'slow');
    await expect(
      cache.getOrFetch(
        'err',
        () => true,
        async () => Promise.reject(boom),
      ),
    ).rejects.toBe(boom);
    expect(cache.get('err')).toBeUndefined();

    await cache.getOrFetch(
      'indexing',
      () => false,
      async () => [1],
    );
    expect(cache.get('indexing')).toBeUndefined();
  });

  it('coalesces identical concurrent requests into one fetch', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    const d = deferred<{ n: number }>();
    let calls = 0;
    const fetch = () => {
      calls++;
      return d.promise;
    };
    const a = cache.getOrFetch('k', () => false, fetch);
    const b = cache.getOrFetch('k', () => false, fetch);
    const c = cache.getOrFetch(
      'other',
      () => false,
      async () => ({ n: 9 }),
    );
    d.resolve({ n: 1 });
    expect(await a).toEqual({ n: 1 });
    expect(await b).toEqual({ n: 1 });
    expect(await c).toEqual({ n: 9 });
    expect(calls).toBe(1);
    expect(cache.stats().coalesced).toBe(1);
    // Nothing stored (store() said no): the next call is a new round trip.
    await cache.getOrFetch(
      'k',
      () => false,
      async () => ({ n: 2 }),
    );
    expect(calls).toBe(1);
    expect(cache.stats().misses).toBe(3);
  });

  it('cancels the shared request only when every waiting caller has aborted', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    let sharedSignal: AbortSignal | undefined;
    const d = deferred<string>();
    const fetch = (signal: AbortSignal) => {
      sharedSignal = signal;
      signal.addEventListener('abort', () => d.reject(new LspgateError('CANCELLED', 'server cancelled')));
      return d.promise;
    };
    const c1 = new AbortController();
    const c2 = new AbortController();
    const a = cache.getOrFetch('k', () => true, fetch, c1.signal);
    const b = cache.getOrFetch('k', () => true, fetch, c2.signal);
    c1.abort();
    await expect(a).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(sharedSignal?.aborted).toBe(false);
    c2.abort();
    await expect(b).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(sharedSignal?.aborted).toBe(true);
  });

  it('a caller that aborts does not cancel the request for one that keeps waiting', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    const d = deferred<string>();
    const c1 = new AbortController();
    const a = cache.getOrFetch(
      'k',
      () => true,
      () => d.promise,
      c1.signal,
    );
    const b = cache.getOrFetch(
      'k',
      () => true,
      () => d.promise,
    );
    c1.abort();
    await expect(a).rejects.toMatchObject({ code: 'CANCELLED' });
    d.resolve('answer');
    expect(await b).toBe('answer');
    expect(cache.get('k')).toEqual({ value: 'answer' });
  });

  it('is bounded by the JSON byte size of its entries', async () => {
    const cache = new ResponseCache({ maxBytes: 10_000, maxEntryBytes: 5_000 });
    const big = 'x'.repeat(1_000);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, big);
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get('k49')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
    cache.set('huge', 'y'.repeat(6_000));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('counts epochs per scope', () => {
    const cache = new ResponseCache({ maxBytes: 1000 });
    expect(cache.epoch('ts\u0000/a')).toBe(0);
    cache.bumpEpoch('ts\u0000/a');
    cache.bumpEpoch('ts\u0000/a');
    expect(cache.epoch('ts\u0000/a')).toBe(2);
    expect(cache.epoch('ts\u0000/b')).toBe(0);
    expect(cache.stats().invalidations).toBe(2);
  });

  it('is listed while alive and can be switched off by env', () => {
    const cache = new ResponseCache({ maxBytes: 1000 });
    expect(liveResponseCaches()).toContain(cache);
    expect(responseCacheEnabled({})).toBe(true);
    expect(responseCacheEnabled({ LSPGATE_RESPONSE_CACHE: 'off' })).toBe(false);
  });
});
