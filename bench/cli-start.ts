/**
 * How long the `lspgate` command takes to answer what needs no workspace (`--version`, `--help`,
 * `daemon status` with no daemon running) against `node -e 0`, runs interleaved so both pay the
 * same machine load; the goal is ≤ 1.5x `node -e 0` (median wall time).
 *   node dist/bench/cli-start.js [--runs N]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { packageRoot } from './raw-client.js';
import { median } from './stats.js';

export const CLI_START_TARGET = 1.5;

export interface CliStartRow {
  command: string;
  median_ms: number;
  node_ms: number;
  ratio: number;
  met: boolean;
}

function wall(args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  spawnSync(process.execPath, args, { stdio: 'ignore', env });
  return performance.now() - t;
}

export function cliStart(runs = 15): CliStartRow[] {
  const cli = path.join(packageRoot, 'dist/src/cli/main.js');
  // a cache directory of its own: `daemon status` must find no daemon (and start none)
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-clistart-'));
  const env = { ...process.env, LSPGATE_CACHE_DIR: cacheDir, XDG_RUNTIME_DIR: '' };
  try {
    return [['--version'], ['--help'], ['daemon', 'status']].map((args) => {
      const node: number[] = [];
      const cmd: number[] = [];
      wall([cli, ...args], env); // the first run pays the disk cache
      for (let i = 0; i < runs; i++) {
        node.push(wall(['-e', '0'], env));
        cmd.push(wall([cli, ...args], env));
      }
      const ratio = median(cmd) / median(node);
      return {
        command: `lspgate ${args.join(' ')}`,
        median_ms: Math.round(median(cmd)),
        node_ms: Math.round(median(node)),
        ratio: Math.round(ratio * 100) / 100,
        met: ratio <= CLI_START_TARGET,
      };
    });
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

export function cliStartTable(rows: CliStartRow[]): string {
  const lines = [`| command | median wall | \`node -e 0\` | ratio (≤ ${CLI_START_TARGET}x) |`, '|---|---:|---:|---:|'];
  for (const r of rows) lines.push(`| \`${r.command}\` | ${r.median_ms} ms | ${r.node_ms} ms | ${r.ratio}x — ${r.met ? 'met' : 'missed'} |`);
  return lines.join('\n') + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--runs');
  process.stdout.write(`CLI start, load average ${os.loadavg()[0]!.toFixed(1)}\n\n${cliStartTable(cliStart(i > 0 ? Number(process.argv[i + 1]) : 15))}`);
}
