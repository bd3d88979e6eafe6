/**
 * The files of the tsserver project that answers for a file (its default project: the one
 * callHierarchy/incomingCalls searches), through typescript-language-server's
 * `typescript.tsserverRequest` command and tsserver's `projectInfo` request with the file list.
 * A callers walk needs no help for a caller in one of these files: the hierarchy already sees it.
 */
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol';

import type { LspSession } from '../../../lsp/types.js';
import { TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.js';

/** The absolute paths of the project's files, or undefined when the server does not say (not tsserver, no such command, no project). */
export async function tsServerProjectFiles(session: LspSession, absPath: string, signal?: AbortSignal): Promise<ReadonlySet<string> | undefined> {
  const provider = session.capabilities?.executeCommandProvider;
  if (!session.hasCapability('executeCommandProvider') || !provider?.commands.includes(TSSERVER_REQUEST_COMMAND)) return undefined;
  const response = (await session.request(
    ExecuteCommandRequest.type,
    { command: TSSERVER_REQUEST_COMMAND, arguments: ['projectInfo', { file: absPath, needFileNameList: true }] },
    { signal },
  )) as { success?: unknown; body?: { fileNames?: unknown; languageServiceDisabled?: unknown } } | null;
  const body = response?.success === true ? response.body : undefined;
  if (!body || body.languageServiceDisabled || !Array.isArray(body.fileNames)) return undefined;
  const files = body.fileNames.filter((f): f is string => typeof f === 'string');
  // an inferred project (no tsconfig) holds the open files only: it says nothing of the others
  return files.length ? new Set(files) : undefined;
}
