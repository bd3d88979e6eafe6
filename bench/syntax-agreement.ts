/**
 * How often the syntax tier and a language server disagree on real code: a cold catalog of one
 * repository (both tiers, a new cache), then the catalog's own count of what changed where each
 * server entry replaced the syntax entry of the same file content — ids only one tier listed, and
 * ids both listed with another byte range, name position or kind.
 *
 *   node dist/bench/syntax-agreement.js --root DIR
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Gateway } from '../src/gateway/gateway.js';

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const root = fs.realpathSync(i >= 0 ? process.argv[i + 1]! : '.');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-agreement-'));
  const g = await Gateway.create({ root, cacheDir });
  try {
    const r = (await g.run('index_folder', { path: root, output_format: 'json' })).result as unknown as {
      state: string;
      files: number;
      symbols: number;
      languages: Record<string, number>;
      tiers: { disagreement: { files_compared: number; server_symbols: number; only_syntax: number; only_server: number; differing: number; rate: number } };
    };
    const d = r.tiers.disagreement;
    process.stdout.write(
      `| ${path.basename(root)} | ${Object.keys(r.languages).join(', ')} | ${d.files_compared} of ${r.files} | ${d.server_symbols} | ${d.only_server} | ${d.only_syntax} | ${d.differing} | ${(d.rate * 100).toFixed(3)}% |\n`,
    );
  } finally {
    await g.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[syntax-agreement] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
