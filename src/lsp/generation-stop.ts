/**
 * Stopping one generation: `shutdown` + `exit` raced against the entry's shutdownMs, then the
 * whole process group is killed (vscode-languageserver-node's shutdown race).
 */
import { ExitNotification, ShutdownRequest } from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../config/schema.js';
import type { Logger } from '../util/logger.js';
import type { Generation } from './generation.js';
import { stoppedError } from './session-errors.js';

export async function stopGeneration(gen: Generation, entry: ServerEntry, graceful: boolean, logger: Logger): Promise<void> {
  // A server told to shut down ends its own children (typescript-language-server ends tsserver):
  // that is the stop we asked for, not a vital child lost.
  gen.vital.stop();
  if (gen.alive && graceful) {
    const polite = (async () => {
      await gen.conn.sendRequest(ShutdownRequest.type);
      await gen.notify(ExitNotification.type);
      await gen.proc.exited;
    })().catch((e: unknown) => logger.debug(`graceful shutdown failed: ${(e as Error).message}`)); // the kill below follows anyway
    await Promise.race([polite, delay(entry.timeouts.shutdownMs)]);
  }
  // Always kill the group: tsserver children outlive a typescript-language-server that exits.
  gen.proc.killTree();
  await Promise.race([gen.proc.exited, delay(2000)]);
  gen.die(stoppedError(entry.id));
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
