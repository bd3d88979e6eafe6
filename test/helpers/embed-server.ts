/** The embedding endpoint fixture (fixtures/embed-server) as a real process, for tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { REPO } from './spawn.js';

export interface EmbedServerStats {
  requests: number;
  batches: number[];
  inputs: number;
  /** Body bytes the server wrote (a client that stops reading stops the stream). */
  bytes_sent: number;
  mode: EmbedMode;
}

/** The fixture's answer modes: `ok`, or a hostile one (fixtures/embed-server/server.mjs). */
export type EmbedMode = 'ok' | 'huge' | 'not-json' | 'drip' | 'non-finite' | 'bad-shape';

export interface EmbedServer {
  url: string;
  proc: ChildProcess;
  stats: () => Promise<EmbedServerStats>;
  /** Switches the running server's mode (`ok` "fixes" the endpoint). */
  setMode: (mode: EmbedMode) => Promise<void>;
}

/** Starts fixtures/embed-server/server.mjs with `args` and resolves once it prints its port. */
export async function startEmbedServer(...args: string[]): Promise<EmbedServer> {
  const proc = spawn(process.execPath, [path.join(REPO, 'fixtures/embed-server/server.mjs'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`embed server exited ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const setMode = async (mode: EmbedMode) => {
    const r = await fetch(`${url}/mode`, { method: 'POST', body: JSON.stringify({ mode }) });
    if (!r.ok) throw new Error(`embed server refused mode ${mode}: ${await r.text()}`);
  };
  return { url, proc, stats: async () => (await fetch(`${url}/stats`)).json() as Promise<EmbedServerStats>, setMode };
}
