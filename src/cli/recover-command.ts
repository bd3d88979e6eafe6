/**
 * `lspgate recover [--root DIR] [--all] [--json]`: finishes the applies a crash interrupted (the
 * journals under the cache dir) for one workspace root (default the current directory) or all of
 * them, in this process — no daemon or server is needed to move files back or forward. An apply whose
 * process still runs is left to it; one that is not provably this user's is set aside, said, and
 * never applied. Prints what was done for each; exit 0, or 1 when recovery failed.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

import { toLspgateError } from '../errors/errors.js';
import { guardedParse } from '../frontends/operation-args.js';
import { defaultCacheDir } from '../gateway/gateway.js';
import { recoverJournals, type RecoveryOutcome } from '../service/editing/recovery.js';

export function runRecoverCommand(argv: string[]): number {
  const { values } = guardedParse({
    args: argv,
    options: { root: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  const root = values.all ? undefined : realRoot(values.root ?? process.cwd());
  let outcomes: RecoveryOutcome[];
  try {
    outcomes = recoverJournals(defaultCacheDir(), root);
  } catch (e) {
    const err = toLspgateError(e);
    process.stderr.write(`${err.code}: recovery failed: ${err.message}\n`);
    return 1;
  }
  if (values.json) process.stdout.write(JSON.stringify({ root: root ?? null, recovered: outcomes }, null, 2) + '\n');
  else if (!outcomes.length) process.stdout.write(`no interrupted apply${root ? ` in ${root}` : ''}: nothing to recover\n`);
  else for (const o of outcomes) process.stdout.write(`${o.action}: ${o.message}\n`);
  return 0;
}

/** The root as journals record it (a real path); a folder that is gone is compared as given. */
function realRoot(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
