/**
 * The MCP tool annotations operations state, by what a call does to its environment: the
 * workspace's files and what later calls answer. Caches any call may fill (the response cache, a
 * catalog built on first use, the search index) answer as if they were empty and change neither.
 * test/unit/annotations.test.ts holds the reason for each operation's set.
 */
import type { OperationAnnotations } from './types.js';

/** Answers from what is there; changes nothing a later call could see. */
export const READ_ONLY: OperationAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

/**
 * Opens or re-catalogs a workspace (and starts its servers): later calls answer from the new state.
 * Adds, never removes; calling it again with the same input changes nothing more.
 */
export const UPDATES_INDEX: OperationAnnotations = { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false };

/** Drops state a later call must rebuild (a catalog, the drift reference). */
export const DROPS_STATE: OperationAnnotations = { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false };

/** May rewrite the workspace's own files (when asked to apply); a second apply is another edit. */
export const WRITES_FILES: OperationAnnotations = { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false };

/** Fetches from outside the machine's workspaces (a git remote) into the cache, then catalogs it. */
export const FETCHES: OperationAnnotations = { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: true };
