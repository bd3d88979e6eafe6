/**
 * Red-team rows for servers and transports under clients and servers that misbehave:
 * - HTTP: a flood of half-open sessions (initialize, never `notifications/initialized`) against a
 *   spawned `lspgate mcp --http --max-sessions 8`: open sessions stay at the cap, the established
 *   client keeps answering, and lspgate's RSS before and after the flood is shown.
 * - SIGSTOP: a real typescript-language-server stopped under an `imports-me` query (whose import
 *   graph is built by background requests): the query answers within a bound, the server is restarted;
 *   the same with only its tsserver child stopped (the wrapper runs, and answers a `$/` probe itself).
 */
import fs from 'node:fs';
import path from 'node:path';

import { toLspgateError } from '../src/errors/errors.js';
import { Gateway } from '../src/gateway/gateway.js';
import { createLogger } from '../src/util/logger.js';
import { CLI, commandLine, descendants, spawnNode, TS_APP, waitFor } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

const TOKEN = 'redteam-serverlife-token-0123456789';
const CAP = 8;
const FLOOD = 1000;
/** The SIGSTOP row's request timeout and the bound its answer must come within. */
const REQUEST_MS = 8000;
const ANSWER_BOUND_MS = 180_000;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

async function halfOpenFlood(tmp: string): Promise<Line> {
  const t0 = performance.now();
  const root = path.join(tmp, 'serverlife-http');
  fs.cpSync(TS_APP, root, { recursive: true });
  const args = ['mcp', '--http', '--port', '0', '--root', root, '--daemon', 'off', '--max-sessions', String(CAP)];
  const p = spawnNode(CLI, args, { cacheDir: path.join(tmp, 'serverlife-http-cache'), cwd: tmp, env: { LSPGATE_TOKEN: TOKEN, LSPGATE_LOG: 'debug' } });
  try {
    await waitFor(() => /listening on (http:\/\/\S+)/.test(p.stderr()), 'the HTTP listening line', 60_000);
    const url = /listening on (http:\/\/\S+)/.exec(p.stderr())![1]!;
    const headers = (session?: string) => ({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
    });
    const post = (body: unknown, session?: string) => fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redteam', version: '0' } },
    };
    const first = await post(init);
    const session = first.headers.get('mcp-session-id')!;
    await first.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const before = rssMb(p.child.pid!);
    let maxOpen = 0;
    const count = (re: RegExp) => p.stderr().match(re)?.length ?? 0;
    for (let sent = 0; sent < FLOOD; sent += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(init)));
      for (const a of answers) await a.body?.cancel();
      maxOpen = Math.max(maxOpen, count(/mcp http session \S+ opened/g) - count(/mcp http session \S+ closed: /g));
    }
    const after = rssMb(p.child.pid!);
    const ping = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session);
    await ping.text();
    const outcome = `at most ${maxOpen} open (cap ${CAP}); established client: ${ping.status}; RSS ${before} → ${after} MB`;
    return {
      what: `${FLOOD} half-open HTTP sessions (initialize, never initialized)`,
      frontend: 'MCP HTTP',
      expected: `≤ ${CAP} open, established client 200`,
      outcome,
      pass: maxOpen <= CAP && ping.status === 200,
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
}

/** `server`: typescript-language-server itself is stopped; `child`: only its tsserver child. */
async function stoppedServer(tmp: string, which: 'server' | 'child'): Promise<Line> {
  const t0 = performance.now();
  const root = path.join(tmp, `serverlife-sigstop-${which}`);
  fs.cpSync(TS_APP, root, { recursive: true });
  const serversFile = path.join(tmp, 'serverlife-servers.json');
  fs.writeFileSync(serversFile, JSON.stringify({ servers: [{ id: 'typescript-language-server', timeouts: { requestMs: REQUEST_MS } }] }));
  const gateway = await Gateway.create({
    root,
    cacheDir: path.join(tmp, `serverlife-sigstop-${which}-cache`),
    serversFiles: [serversFile],
    logger: createLogger('redteam', 'error'),
  });
  let pid: number | undefined;
  try {
    await gateway.run('index_folder', { path: root, output_format: 'json' });
    const session = gateway.context.broker.existing()[0]!;
    await session.waitReady();
    const generation = session.generation;
    pid = which === 'server' ? session.pid! : descendants(session.pid!).find((p) => /[/\\]tsserver\.js( |$)/.test(commandLine(p)));
    if (pid === undefined) throw new Error('no tsserver.js child found');
    process.kill(pid, 'SIGSTOP');
    const t1 = performance.now();
    const bound = new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), ANSWER_BOUND_MS).unref());
    const query = gateway.run('query_relationships', { query_type: 'imports-me', target: 'src/util/math.ts', max_depth: 1, output_format: 'json' }).then(
      (r) => `answered (${(r.result as { skipped?: unknown[] }).skipped?.length ?? 0} files skipped)`,
      (e: unknown) => toLspgateError(e).code,
    );
    const got = await Promise.race([query, bound]);
    const waited = Math.round((performance.now() - t1) / 1000);
    const restarted = session.generation > generation;
    const outcome = `${got} in ${waited} s; server ${restarted ? 'restarted' : 'not restarted'}`;
    const stopped = which === 'server' ? 'language server' : "language server's tsserver child";
    return {
      what: `${stopped} stopped (SIGSTOP) under imports-me (background requests)`,
      frontend: 'in-process',
      expected: `answer within ${ANSWER_BOUND_MS / 1000} s, server restarted`,
      outcome,
      pass: got !== 'no answer' && restarted,
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // reset (SIGKILL): gone
      }
    }
    await gateway.close();
  }
}

export async function serverlifeRows(tmp: string): Promise<Line[]> {
  return [await halfOpenFlood(tmp), await stoppedServer(tmp, 'server'), await stoppedServer(tmp, 'child')];
}
