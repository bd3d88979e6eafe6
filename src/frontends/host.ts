/**
 * What a front-end needs from the gateway it serves: the in-process Gateway, or (attached to
 * `lspgate daemon`) a RemoteGateway that forwards every operation over the daemon's socket. The
 * broker is narrowed to what front-ends watch: the sessions this process can see (none in a client
 * attached to the daemon, whose progress arrives with each call instead).
 */
import path from 'node:path';

import type { Broker } from '../broker/types.js';
import type { ServerEntry } from '../config/schema.js';
import type { LspSession } from '../lsp/types.js';
import type { RunOptions, RunResult } from '../operations/runner.js';
import type { Operation } from '../operations/types.js';
import type { Logger } from '../util/logger.js';

export type WatchedBroker = Pick<Broker, 'existing' | 'info' | 'onSessionCreated'>;

export interface FrontendGateway {
  readonly defaultRoot: string;
  readonly context: {
    readonly logger: Logger;
    readonly cacheDir: string;
    readonly servers: readonly ServerEntry[];
    readonly broker: WatchedBroker;
  };
  operations(): Operation[];
  run(name: string, input: unknown, opts?: RunOptions): Promise<RunResult>;
  /**
   * Calls `onChange` after each change of `file` (a path of the workspace, as operations take it) in
   * the workspace's change feed — the catalog's, after its gate — and resolves to the function that
   * stops it. Starts watching the workspace if nothing does yet. The workspace as operations name it
   * (undefined: the default one); an unknown one is WORKSPACE_NOT_FOUND.
   */
  watchFile(workspace: string | undefined, file: string, onChange: () => void): Promise<() => void>;
  /** In-process: stops every server. Attached: detaches from the daemon (its servers stay). */
  close(): Promise<void>;
}

/** Whether `p` is `root` or inside it. */
function within(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * The broker as one client of the daemon may watch it: only sessions whose root lies in one of
 * `roots()` (the client's open workspaces, read at each look), so a front-end hosted in the daemon
 * relays progress of its own client's servers, never of another client's.
 */
export function clientBroker(broker: WatchedBroker, roots: () => readonly string[]): WatchedBroker {
  const mine = (root: string) => roots().some((r) => within(root, r));
  return {
    existing: () => broker.existing().filter((s) => mine(s.info().root)),
    info: () => broker.info().filter((i) => mine(i.root)),
    ...(broker.onSessionCreated
      ? { onSessionCreated: (listener: (s: LspSession) => void) => broker.onSessionCreated!((s) => (mine(s.info().root) ? listener(s) : undefined)) }
      : {}),
  };
}
