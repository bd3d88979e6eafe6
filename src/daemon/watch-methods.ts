/**
 * The daemon's file-change methods (watch-protocol.ts) on one client connection: each watch is a
 * listener on the client's view of a workspace's change feed (Gateway.watchFile), answered with a
 * notification naming it; all of them end with the connection.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';

import { LspgateError } from '../errors/errors.js';
import { ATTACH } from '../frontends/daemon-client/protocol.js';
import {
  FILE_CHANGED,
  type FileChangedNotification,
  UNWATCH_FILE,
  UnwatchFileParams,
  WATCH_FILE,
  WatchFileParams,
} from '../frontends/daemon-client/watch-protocol.js';
import type { Gateway } from '../gateway/gateway.js';
import type { Logger } from '../util/logger.js';
import { rpcError } from './rpc-error.js';

export function registerWatchMethods(connection: MessageConnection, view: () => Gateway | undefined, logger: Logger): void {
  const watches = new Map<number, () => void>();
  connection.onRequest(WATCH_FILE, async (params: unknown) => {
    try {
      const p = WatchFileParams.safeParse(params);
      if (!p.success) throw new LspgateError('INVALID_INPUT', `bad ${WATCH_FILE} params: ${p.error.message}`);
      const v = view();
      if (!v) throw new LspgateError('DAEMON_FAILED', `send ${ATTACH} before ${WATCH_FILE}`, { reason: 'not_attached' });
      const { id, workspace, file } = p.data;
      const notify = () =>
        void connection
          .sendNotification(FILE_CHANGED, { id } satisfies FileChangedNotification)
          .catch((e: unknown) => logger.debug('file change notification not sent', e));
      const off = await v.watchFile(workspace, file, notify);
      watches.get(id)?.();
      watches.set(id, off);
      return {};
    } catch (e) {
      throw rpcError(e);
    }
  });
  connection.onRequest(UNWATCH_FILE, (params: unknown) => {
    const p = UnwatchFileParams.safeParse(params);
    if (!p.success) throw rpcError(new LspgateError('INVALID_INPUT', `bad ${UNWATCH_FILE} params: ${p.error.message}`));
    watches.get(p.data.id)?.();
    watches.delete(p.data.id);
    return {};
  });
  const stop = () => {
    for (const off of watches.values()) off();
    watches.clear();
  };
  connection.onClose(stop);
  connection.onDispose(stop);
}
