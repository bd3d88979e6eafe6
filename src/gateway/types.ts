/**
 * The composition root's contracts: what an operation handler can reach.
 */
import type { Limits, ServerEntry } from '../config/schema.js';
import type { Broker } from '../broker/types.js';
import type { Catalog } from '../catalog/types.js';
import type { Logger } from '../util/logger.js';

export interface GatewayContext {
  readonly servers: ServerEntry[];
  readonly broker: Broker;
  readonly limits: Limits;
  /** LSPGATE_CACHE_DIR, default ~/.cache/lspgate. */
  readonly cacheDir: string;
  readonly logger: Logger;
}

export interface Workspace {
  /** Real absolute path. */
  readonly root: string;
  /** Short stable id (basename + hash of the path). */
  readonly id: string;
  readonly gateway: GatewayContext;
  readonly catalog: Catalog;
}
