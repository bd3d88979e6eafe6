/**
 * The framing and oversize cases for `npm run redteam`: a spawned `lspgate sidecar` fed bad
 * Content-Length framing (one fresh process per case: after broken framing it answers -32700 with
 * id null, logs why and exits), and an MCP message of 11 MiB over stdio and over HTTP (refused,
 * and the same process answers the next call).
 */
import type { Message } from 'vscode-jsonrpc';
import { StreamMessageReader } from 'vscode-jsonrpc/node';

import { CLI, spawnNode } from '../test/helpers/spawn.js';
import { type Frontend, type Outcome, SAFE } from './redteam-frontends.js';

export interface FramingCase {
  what: string;
  frontend: string;
  run(): Promise<Outcome & { pass: boolean }>;
}

const VALID = (() => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_workspaces', params: {} });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
})();

const SIDECAR_JUNK: [string, string][] = [
  ['non-numeric Content-Length', 'Content-Length: lots\r\n\r\n{}'],
  ['negative Content-Length', 'Content-Length: -5\r\n\r\n{}'],
  ['header without Content-Length', 'Content-Type: application/json\r\n\r\n{}'],
  ['100 MB announced length', 'Content-Length: 104857600\r\n\r\n{"jsonrpc":'],
  ['20 MB of header junk', 'X'.repeat(20 * 1024 * 1024)],
];

async function badSidecar(root: string, cacheDir: string, junk: string): Promise<Outcome & { pass: boolean }> {
  const p = spawnNode(CLI, ['sidecar', '--root', root], { cacheDir });
  const reader = new StreamMessageReader(p.child.stdout!);
  const first = new Promise<Message>((resolve) => reader.listen(resolve));
  p.child.stdin!.on('error', () => undefined); // it may close before all the junk is written
  p.child.stdin!.write(junk);
  p.child.stdin!.write(VALID);
  const bound = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref());
  const msg = await Promise.race([first, bound]);
  const exit = await Promise.race([p.exited, bound]);
  if (p.child.exitCode === null) p.child.kill('SIGKILL');
  reader.dispose();
  if (msg === 'hung') return { outcome: 'no answer (jammed)', text: p.stderr(), pass: false };
  const m = msg as unknown as { id: unknown; error?: { code: number } };
  const closed = exit === 'hung' ? 'still open' : `exit ${exit.code}`;
  const logged = /broke the message framing/.test(p.stderr());
  return {
    outcome: `${m.error?.code ?? 'result'} (id ${String(m.id)}), ${closed}${logged ? ', reason logged' : ''}`,
    text: JSON.stringify(msg) + p.stderr(),
    pass: m.id === null && m.error?.code === -32700 && exit !== 'hung' && logged,
  };
}

/** An 11 MiB call, then an ordinary one: pass = a coded refusal and the next call answered. */
async function oversize(fe: Frontend): Promise<Outcome & { pass: boolean }> {
  const big = await fe.call('search_text', { query: 'q'.repeat(11 * 1024 * 1024) });
  const next = await fe.call('get_file_tree', {});
  const pass =
    big.outcome !== SAFE && !big.outcome.startsWith('uncoded') && !big.outcome.startsWith('no answer') && big.outcome !== 'INTERNAL' && next.outcome === SAFE;
  return { outcome: `${big.outcome}; next call: ${next.outcome}`, text: big.text.slice(0, 2000) + next.text, pass };
}

export function framingCases(root: string, cacheDir: string, stdio: Frontend, http: Frontend): FramingCase[] {
  return [
    ...SIDECAR_JUNK.map(([what, junk]): FramingCase => ({
      what: `sidecar: ${what}`,
      frontend: 'sidecar (fresh)',
      run: () => badSidecar(root, cacheDir, junk),
    })),
    { what: 'MCP message of 11 MiB', frontend: stdio.name, run: () => oversize(stdio) },
    { what: 'MCP message of 11 MiB', frontend: http.name, run: () => oversize(http) },
  ];
}
