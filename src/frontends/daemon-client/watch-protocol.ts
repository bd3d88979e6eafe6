/**
 * The daemon's file-change methods: a front-end running in a client process (MCP over HTTP
 * attached to the daemon) subscribes to a file of a workspace's change feed; the daemon tells it
 * with a notification naming the watch. What a client watches ends with its connection.
 */
import { z } from 'zod';

/** Watch a file: `{ id, workspace?, file }` → `{}`; then `lspgate/fileChanged { id }` on each change. */
export const WATCH_FILE = 'lspgate/watchFile';
export const UNWATCH_FILE = 'lspgate/unwatchFile';
export const FILE_CHANGED = 'lspgate/fileChanged';

export const WatchFileParams = z.object({
  id: z.number().int().nonnegative(),
  workspace: z.string().max(4096).optional(),
  file: z.string().min(1).max(4096),
});

export const UnwatchFileParams = z.object({ id: z.number().int().nonnegative() });

export interface FileChangedNotification {
  id: number;
}
