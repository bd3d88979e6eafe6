/**
 * Answers to server→client requests. Every request gets an answer (a server waiting on an
 * unanswered request can stall): known ones per LSP 3.17, everything else MethodNotFound.
 */
import { ErrorCodes, type MessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import {
  ApplyWorkspaceEditRequest,
  type ConfigurationParams,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  LogMessageNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  type WorkspaceFolder,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol';

import type { Logger } from '../util/logger.js';

/** `workspace/configuration`: walk the settings by dotted section; null when absent (spec). */
export function configurationSection(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (!section) return settings;
  let cur: unknown = settings;
  for (const part of section.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !(part in cur)) return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur ?? null;
}

export interface ClientHandlerContext {
  settings: Record<string, unknown>;
  folders: WorkspaceFolder[];
  logger: Logger;
  /** Counts each server→client request method (tests and info). */
  onServerRequest?: (method: string) => void;
  /** Every window/logMessage (a server may say in its log what it has no notification for). */
  onLog?: (message: string) => void;
}

export function registerClientHandlers(conn: MessageConnection, ctx: ClientHandlerContext): void {
  const seen = (m: string) => ctx.onServerRequest?.(m);
  conn.onRequest(ConfigurationRequest.type, (params: ConfigurationParams) => {
    seen(ConfigurationRequest.method);
    return params.items.map((item) => configurationSection(ctx.settings, item.section));
  });
  // Dynamic registrations are accepted; lspgate sends the notifications they ask for anyway
  // (didChangeWatchedFiles comes from its own watcher).
  conn.onRequest(RegistrationRequest.type, () => {
    seen(RegistrationRequest.method);
  });
  conn.onRequest(UnregistrationRequest.type, () => {
    seen(UnregistrationRequest.method);
  });
  conn.onRequest(WorkDoneProgressCreateRequest.type, () => {
    seen(WorkDoneProgressCreateRequest.method);
  });
  // a pull-diagnostics server says its diagnostics changed; lspgate pulls when asked, so nothing to do
  conn.onRequest(DiagnosticRefreshRequest.type, () => {
    seen(DiagnosticRefreshRequest.method);
  });
  conn.onRequest(WorkspaceFoldersRequest.type, () => {
    seen(WorkspaceFoldersRequest.method);
    return ctx.folders;
  });
  conn.onRequest(ShowMessageRequest.type, (p) => {
    seen(ShowMessageRequest.method);
    ctx.logger.info(`server asks: ${p.message}`);
    return null;
  });
  conn.onRequest(ApplyWorkspaceEditRequest.type, () => {
    seen(ApplyWorkspaceEditRequest.method);
    return { applied: false, failureReason: 'lspgate is read-only' };
  });
  conn.onRequest((method) => {
    seen(method);
    return new ResponseError(ErrorCodes.MethodNotFound, `lspgate does not handle ${method}`);
  });
  conn.onNotification(LogMessageNotification.type, (p) => {
    ctx.onLog?.(p.message);
    ctx.logger.debug(`log: ${p.message.slice(0, 2000)}`);
  });
  conn.onNotification(ShowMessageNotification.type, (p) => ctx.logger.debug(`message: ${p.message.slice(0, 2000)}`));
}
