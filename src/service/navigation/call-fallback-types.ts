/**
 * The contract of calls-fallback.ts (servers without callHierarchyProvider, e.g. intelephense):
 * callers from references, callees from the calls in a body, answered in the LSP call-hierarchy
 * shape so that the call tree treats both sources alike. `sites` are ranges in `sitesUri`.
 */
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';

import type { LspSession } from '../../lsp/types.js';
import type { ServiceCall } from '../call.js';

export interface CallEdge {
  item: CallHierarchyItem;
  sites: Range[];
  sitesUri: string;
}

export interface CallFallbackContext {
  call: ServiceCall;
  session: LspSession;
}

export interface CallFallback {
  incomingCallsFromReferences(ctx: CallFallbackContext, target: CallHierarchyItem, opts?: { callsOnly?: boolean }): Promise<CallEdge[]>;
  outgoingCallsFromBody(ctx: CallFallbackContext, target: CallHierarchyItem): Promise<CallEdge[]>;
}

let loaded: Promise<CallFallback | undefined> | undefined;

/** calls-fallback.ts is written separately; loaded lazily so a tree without it still builds. */
export function loadCallFallback(): Promise<CallFallback | undefined> {
  const spec = './calls-fallback.js';
  loaded ??= (import(spec) as Promise<Partial<CallFallback>>).then(
    (m) => (typeof m.incomingCallsFromReferences === 'function' && typeof m.outgoingCallsFromBody === 'function' ? (m as CallFallback) : undefined),
    (e: NodeJS.ErrnoException) => {
      if (e?.code === 'ERR_MODULE_NOT_FOUND') return undefined;
      throw e;
    },
  );
  return loaded;
}
