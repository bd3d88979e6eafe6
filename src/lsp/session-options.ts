/** How a session is set up (session.ts); the broker shares the policy and the global slots. */
import type { Limits } from '../config/schema.js';
import type { Logger } from '../util/logger.js';
import type { ProtocolOptions } from './generation.js';
import type { RestartPolicy } from './restart-policy.js';
import type { Semaphore } from './semaphore.js';

export interface SessionOptions {
  cacheDir: string;
  logger?: Logger;
  limits?: Limits;
  /** Shared with the broker so crashes count across restarts; default from entry.restart. */
  restartPolicy?: RestartPolicy;
  protocol?: ProtocolOptions;
  /** Run the server under the parent-watching reaper (default true). */
  reaper?: boolean;
  /** Gateway-wide request slots (limits.globalConcurrency), shared by the broker's sessions. */
  globalSlots?: Semaphore;
  /**
   * Variables added to the server's environment at each (re)start, given the root and the
   * environment it would start with (the broker asks the entry's adapter).
   */
  launchEnv?: (root: string, env: NodeJS.ProcessEnv) => Promise<Record<string, string>>;
  /**
   * What a server's failed answer (an LSP error with no code lspgate sorts) about a file means, given
   * the environment the server runs with; undefined keeps the error as it is.
   */
  explainError?: (lspMessage: string, absPath: string, env: NodeJS.ProcessEnv) => Promise<{ message: string; details: Record<string, unknown> } | undefined>;
}
