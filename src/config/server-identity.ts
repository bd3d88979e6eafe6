/**
 * What one language server would be under a given environment: the file its command resolves to
 * (a real path), the programs it needs or runs (`requires`, `runsPrograms`) as found on its
 * extraPath and that PATH, the Node binary for a server run by Node, and the values (hashed) of the
 * variables it reads (`readsEnv`). Two environments under which every enabled server is the same
 * get the same answers from the same server process: the shared daemon serves both. Where one
 * differs, the difference is named (programs with both paths; variables by name only).
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { type ExpandContext, expandVariables, MissingPackageError, packageDir, searchPath } from './load.js';
import type { ServerEntry } from './schema.js';

export interface ServerEnvironment {
  /** PATH as the client has it. */
  path: string;
  /** Real path of the Node binary that `node: true` servers run under. */
  node: string;
  /** Variable name → hash of its value (as src/link/config-env.ts makes them). */
  variables: Record<string, string>;
}

/** Aspect → what it is under one environment (`command`, `program go`, `variable GOFLAGS`). */
export type ServerIdentity = Map<string, string>;

const MISSING = '(not found)';
const UNSET = '(unset)';

function real(p: string | undefined): string {
  if (p === undefined) return MISSING;
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function commandOf(entry: ServerEntry, ctx: ExpandContext, env: ServerEnvironment, dirs: string[]): string {
  if (entry.package && entry.binPath) {
    let dir: string | undefined;
    try {
      dir = packageDir(entry.package);
    } catch (e) {
      if (!(e instanceof MissingPackageError)) throw e;
    }
    const bin = dir ? path.join(dir, entry.binPath) : undefined;
    if (bin && existsSync(bin)) return entry.node ? `${env.node} ${real(bin)}` : real(bin);
  }
  return real(searchPath(entry.command, dirs));
}

export function serverIdentity(entry: ServerEntry, ctx: ExpandContext, env: ServerEnvironment, hashOf: (value: string) => string): ServerIdentity {
  const dirs = [...expandVariables(entry.extraPath, ctx), ...env.path.split(path.delimiter)].filter(Boolean);
  const id: ServerIdentity = new Map([['command', commandOf(entry, ctx, env, dirs)]]);
  for (const program of [...entry.requires, ...entry.runsPrograms]) id.set(`program ${program}`, real(searchPath(program, dirs)));
  for (const name of entry.readsEnv) {
    // a variable the entry sets itself is the same for everyone
    const own = entry.env[name];
    id.set(`variable ${name}`, own !== undefined ? hashOf(own) : (env.variables[name] ?? UNSET));
  }
  return id;
}

/**
 * How `mine` differs from `theirs`: `program python3: /usr/bin/python3 for this client,
 * /opt/py/bin/python3 for the daemon`, `variable GOFLAGS`, in the entry's order.
 */
export function identityDifferences(mine: ServerIdentity, theirs: ServerIdentity): string[] {
  const out: string[] = [];
  for (const [aspect, value] of mine) {
    const other = theirs.get(aspect);
    if (other === value) continue;
    out.push(aspect.startsWith('variable ') ? aspect : `${aspect}: ${value} for this client, ${other ?? MISSING} for the daemon`);
  }
  return out;
}
