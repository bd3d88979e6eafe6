/**
 * `npm run redteam`'s git rows: a repository whose config, attributes, include file, hooks and
 * submodule name programs (test/helpers/hostile-git.ts: fsmonitor, clean filter, textconv,
 * diff.external, diff.<x>.command, pager, an include.path, hooks, a submodule's own config,
 * gpg.program, and a clone source with an ext:: submodule), one copy per front-end. Each call that
 * runs git is a row: pass = a safe answer and no planted program ran (no marker file).
 */
import path from 'node:path';

import { buildHostileGit, gitCalls as calls } from '../test/helpers/hostile-git.js';
import { type Frontend, mcpHttp, mcpStdio, oneShotCli, SAFE, sidecar } from './redteam-frontends.js';
import type { Line } from './redteam-writes.js';

function line(what: string, frontend: string, outcome: string, ran: string[], t0: number): Line {
  const shown = ran.length ? `${outcome}; RAN ${ran.join(', ')}` : outcome;
  return {
    what: `hostile git: ${what}`,
    frontend,
    expected: `${SAFE}, nothing run`,
    outcome: shown,
    pass: outcome === SAFE && ran.length === 0,
    ms: Math.round(performance.now() - t0),
  };
}

/** The git calls through MCP stdio (with the review_change prompt), MCP HTTP, the sidecar and the CLI. */
export async function gitRows(tmp: string, cache: string): Promise<Line[]> {
  const out: Line[] = [];
  const factories: [string, (root: string) => Promise<Frontend & { conn?: Awaited<ReturnType<typeof mcpStdio>>['conn'] }>][] = [
    ['MCP stdio', (root) => mcpStdio(root, cache, tmp)],
    ['MCP HTTP', (root) => mcpHttp(root, cache, tmp)],
    ['sidecar', async (root) => sidecar(root, cache, tmp)],
    ['CLI', async (root) => oneShotCli(root, cache, tmp)],
  ];
  for (const [name, make] of factories) {
    const h = buildHostileGit(path.join(tmp, `git-${name.replace(/\W+/g, '-')}`));
    const fe = await make(h.root);
    try {
      for (const [op, input] of calls(h)) {
        const t0 = performance.now();
        const got = await fe.call(op, input);
        out.push(line(op, name, got.outcome, h.markers(), t0));
      }
      if (fe.conn) {
        const t0 = performance.now();
        const p = await fe.conn.client.getPrompt({ name: 'review_change', arguments: {} }, { timeout: 120_000 }).catch(() => undefined);
        out.push(line('review_change prompt', name, p ? SAFE : 'no prompt', h.markers(), t0));
      }
    } finally {
      await fe.close().catch(() => undefined);
    }
  }
  return out;
}
