/**
 * A real typescript-language-server whose tsserver child is stopped (SIGSTOP) while the wrapper
 * itself runs. The wrapper answers lspgate's liveness probe (`$/lspgate/alive`) on its own, so a
 * probe alone saw a live server: background work queued behind the stopped child spent a timeout
 * per file with no restart, and an interactive call was restarted only after three timeouts. Now a
 * timeout is followed by a look at the server's process tree (/proc state `T`): a stopped process in
 * it makes the server hung at once. The first interactive call after the stop answers a coded
 * TIMEOUT and the server is restarted (a new generation, the stopped tsserver killed); the next call
 * answers from the new server. The same for background work: an `imports-me` query, whose import
 * graph is built by background requests, answers (saying which files it left out) and the server is
 * restarted; the next query is whole.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { toLspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';
import { commandLine, descendants, isAlive, removeDir, tempDir, TS_APP, waitGone } from '../helpers/spawn.js';

// Short enough that the test waits little for a stopped child, long enough for a loaded machine's warm tsserver.
const REQUEST_MS = 8000;

describe('typescript-language-server running, its tsserver child stopped with SIGSTOP', () => {
  let dir: string;
  let root: string;
  let gateway: Gateway;
  const stopped: number[] = [];

  beforeAll(async () => {
    dir = tempDir('lspgate-stopped-child-');
    root = path.join(dir, 'ws');
    cpSync(TS_APP, root, { recursive: true });
    const serversFile = path.join(dir, 'servers.json');
    writeFileSync(serversFile, JSON.stringify({ servers: [{ id: 'typescript-language-server', timeouts: { requestMs: REQUEST_MS } }] }));
    gateway = await Gateway.create({ root, cacheDir: path.join(dir, 'cache'), serversFiles: [serversFile], logger: createLogger('test', 'error') });
    const built = await gateway.run('index_folder', { path: root, output_format: 'json' });
    expect(built.result).toMatchObject({ state: 'ready' });
    // the catalog comes from parse trees: the server starts at the first semantic question (tests run on-demand)
    await gateway.run('find_definition', { symbol: 'User', output_format: 'json' });
  }, 180_000);

  afterAll(async () => {
    // a stopped process that is still there gets SIGCONT, so that the close can end it
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone (killed with its tree)
      }
    }
    await gateway?.close();
    if (dir) removeDir(dir);
  });

  /** Stops the ready server's tsserver child (found through /proc); the wrapper keeps running. */
  async function stopTsserver(): Promise<{ generation: number; wrapper: number; child: number }> {
    const session = gateway.context.broker.existing()[0]!;
    expect(await session.waitReady()).toBe('ready');
    const wrapper = session.pid!;
    const child = descendants(wrapper).find((p) => /[/\\]tsserver\.js( |$)/.test(commandLine(p)));
    expect(child, `no tsserver.js under ${wrapper}`).toBeDefined();
    process.kill(child!, 'SIGSTOP');
    stopped.push(child!);
    return { generation: session.generation, wrapper, child: child! };
  }

  const definition = () => gateway.run('find_definition', { file: 'src/app.ts', line: 12, column: 10, output_format: 'json' });

  it('an interactive call answers TIMEOUT at once and the server is restarted; the next call answers', async () => {
    const before = await stopTsserver();
    const session = gateway.context.broker.existing()[0]!;
    const first = await definition().then(
      () => 'answered',
      (e: unknown) => toLspgateError(e).code,
    );
    expect(first).toBe('TIMEOUT');
    // one timeout was enough: the stopped child made the server hung, and it was killed (it took three timeouts before)
    expect(session.state).toBe('crashed');
    expect(await waitGone([before.child, before.wrapper])).toEqual([]);

    const second = await definition();
    expect(JSON.stringify(second.result)).toContain('src/services/report.ts');
    expect(session.generation).toBeGreaterThan(before.generation);
    expect(session.pid).toBeDefined();
    expect(isAlive(session.pid!)).toBe(true);
  }, 180_000);

  it('background work (an imports-me query) restarts the server instead of waiting a timeout per file; the next query is whole', async () => {
    const before = await stopTsserver();
    const session = gateway.context.broker.existing()[0]!;
    const query = { query_type: 'imports-me', target: 'src/util/math.ts', max_depth: 1, output_format: 'json' };
    const first = await gateway.run('query_relationships', query).then(
      (r) => ({ skipped: (r.result as { skipped?: { code: string }[] }).skipped ?? [], code: undefined }),
      (e: unknown) => ({ skipped: [], code: toLspgateError(e).code }),
    );
    expect(session.generation).toBeGreaterThan(before.generation);
    if (first.code !== undefined) expect(['TIMEOUT', 'SERVER_CRASHED']).toContain(first.code);
    else for (const s of first.skipped) expect(['TIMEOUT', 'SERVER_CRASHED']).toContain(s.code);
    expect(await waitGone([before.child, before.wrapper])).toEqual([]);

    const second = await gateway.run('query_relationships', query);
    const result = second.result as unknown as { skipped?: unknown[]; results: { file: string }[] };
    expect(result.skipped ?? []).toEqual([]);
    expect(result.results.map((r) => r.file)).toContain('src/models/shape.ts');
  }, 240_000);
});
