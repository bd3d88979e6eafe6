/**
 * The workspace contracts every layer shares (types only): a workspace is a real root, a short id
 * and its catalog; what a layer needs beyond that (a broker, limits, a logger) is handed to it
 * explicitly by the composition root, never reached through the workspace.
 */
import type { Catalog } from './catalog.js';

export interface Workspace {
  /** Real absolute path. */
  readonly root: string;
  /** Short stable id (basename + hash of the path). */
  readonly id: string;
  readonly catalog: Catalog;
  /**
   * Said once, in the `_meta.warnings` of the next answer on this workspace: what opening it found
   * and did (an interrupted apply completed or rolled back).
   */
  readonly notices?: string[];
}

/** What operations may ask of the gateway beyond their own workspace (index_folder, list_repos...). */
export interface GatewayHandle {
  /** Opens (or returns the already opened) workspace at an absolute or cwd-relative path. */
  openWorkspace(path: string): Promise<Workspace>;
  workspaces(): Workspace[];
  closeWorkspace(idOrPath: string): Promise<boolean>;
  readonly defaultRoot: string;
  /** Throws PATH_OUTSIDE_WORKSPACE unless the real folder may be opened (gateway/root-policy.ts). */
  assertAllowedRoot(realDir: string, asked: string): void;
}
