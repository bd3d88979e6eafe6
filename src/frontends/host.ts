/**
 * What a front-end needs from the gateway it serves: the in-process Gateway, or (attached to
 * `lspgate daemon`) a RemoteGateway that forwards every operation over the daemon's socket. The
 * broker is narrowed to what front-ends watch: the sessions this process can see (none in a client
 * attached to the daemon, whose progress arrives with each call instead).
 */
import type { Broker } from '../broker/types.js';
import type { ServerEntry } from '../config/schema.js';
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
  /** In-process: stops every server. Attached: detaches from the daemon (its servers stay). */
  close(): Promise<void>;
}
