/**
 * A real typescript-language-server stopped with SIGSTOP answers nothing. Interactive timeouts
 * restart such a server (maxConsecutiveTimeouts), but background timeouts alone do not count (a
 * starved server answers late), so an `imports-me` query, whose import graph is built by background
 * requests, waited a timeout per file (over 300 s) and the server was never restarted. Now a
 * background timeout is followed by a liveness probe (a `$/` request every live server answers);
 * unanswered, the server is reset: the query answers, saying which files it left out and why, the
 * restarted server answers, and the files left out are asked again of it on the next query.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { toLspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';

const TEST_TIMEOUT_MS = 300_000;
// Short enough that the test does not wait long for a stopped server, long enough for a loaded machine's warm tsserver.
const REQUEST_MS = 8000;

interface Skipped {
  file: string;
  code: string;
  reason: string;
}

describe('a language server stopped with SIGSTOP under background work', () => {
  let dir: string;
  let root: string;
  let gateway: Gateway;
  const stopped: number[] = [];

  beforeAll(async () => {
    dir = tempDir('lspgate-sigstop-');
    root = path.join(dir, 'ws');
    cpSync(TS_APP, root, { recursive: true });
    const serversFile = path.join(dir, 'servers.json');
    writeFileSync(serversFile, JSON.stringify({ servers: [{ id: 'typescript-language-server', timeouts: { requestMs: REQUEST_MS } }] }));
    gateway = await Gateway.create({ root, cacheDir: path.join(dir, 'cache'), serversFiles: [serversFile], logger: createLogger('test', 'error') });
  });

  afterAll(async () => {
    // a stopped process that is still there gets SIGCONT, so that the close can end it
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone (reset with SIGKILL)
      }
    }
    await gateway?.close();
    if (dir) removeDir(dir);
  });

  it(
    'imports-me answers with the files it left out, the hung server is restarted, and the next query is whole',
    async () => {
      // the catalog (parse trees) is built and the server warm before the stop (a semantic question starts it); the import graph is not
      const built = await gateway.run('index_folder', { path: root, output_format: 'json' });
      expect(built.result).toMatchObject({ state: 'ready' });
      await gateway.run('find_definition', { file: 'src/util/math.ts', line: 5, output_format: 'json' });
      const session = gateway.context.broker.existing()[0]!;
      expect(await session.waitReady()).toBe('ready');
      const generation = session.generation;
      const pid = session.pid!;
      process.kill(pid, 'SIGSTOP');
      stopped.push(pid);

      const query = { query_type: 'imports-me', target: 'src/util/math.ts', max_depth: 1, output_format: 'json' };
      const first = await gateway.run('query_relationships', query).then(
        (r) => ({ result: r.result as Record<string, unknown> & { skipped?: Skipped[] }, code: undefined }),
        (e: unknown) => ({ result: undefined, code: toLspgateError(e).code }),
      );
      // the hung server was reset (killed and started again), not waited on file after file
      expect(session.generation).toBeGreaterThan(generation);
      expect(session.pid).not.toBe(pid);
      if (first.code !== undefined) expect(['TIMEOUT', 'SERVER_CRASHED']).toContain(first.code);
      else {
        // a partial answer says which files it left out and why
        expect(first.result!.skipped?.length).toBeGreaterThan(0);
        for (const s of first.result!.skipped!) expect(['TIMEOUT', 'SERVER_CRASHED']).toContain(s.code);
        // partial, or indexing while the restarted server loads its project ('indexing' beats 'partial')
        expect(['partial', 'indexing']).toContain((first.result!._meta as { index_state: string }).index_state);
      }

      // the restarted server answers: files left out are asked again, and the answer is whole
      const second = await gateway.run('query_relationships', query);
      const result = second.result as unknown as Record<string, unknown> & { skipped?: Skipped[]; results: { file: string }[] };
      expect(result.skipped ?? []).toEqual([]);
      expect(result.results.map((r) => r.file)).toContain('src/models/shape.ts');
    },
    TEST_TIMEOUT_MS,
  );
});
