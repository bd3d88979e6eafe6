/**
 * tsserver's own diagnostics requests, reached through typescript-language-server's
 * `typescript.tsserverRequest` command: `syntacticDiagnosticsSync`, `semanticDiagnosticsSync` and
 * `suggestionDiagnosticsSync` answer for the file's content as the server has it, once its project
 * is loaded. Its publishDiagnostics cannot say that: after a project loads it publishes the
 * syntactic diagnostics first (often none) and the semantic ones up to a second later, and an
 * answer taken in between called a broken file clean. Pure conversion here, as
 * typescript-language-server converts the same diagnostics for its publishes (toDiagnostic).
 */
import { type Diagnostic, DiagnosticSeverity, DiagnosticTag, ExecuteCommandRequest } from 'vscode-languageserver-protocol';

import type { LspSession, OpenDocument } from '../../../lsp/types.js';
import { fileUri } from '../../../util/uri.js';

export const TSSERVER_REQUEST_COMMAND = 'typescript.tsserverRequest';
export const TSSERVER_DIAGNOSTIC_REQUESTS = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;

interface Location {
  line: number;
  offset: number;
}

/** protocol.Diagnostic of tsserver (1-based lines and offsets). */
export interface TsServerDiagnostic {
  start: Location;
  end: Location;
  text: string;
  code?: number;
  category: string;
  source?: string;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
  relatedInformation?: { span?: { file: string; start: Location; end: Location }; message: string }[];
}

/** The body of a tsserver response to one of the requests, or undefined when the answer is not one. */
export function tsServerDiagnosticsBody(response: unknown): TsServerDiagnostic[] | undefined {
  const r = response as { success?: unknown; body?: unknown } | null;
  if (!r || r.success !== true || !Array.isArray(r.body)) return undefined;
  return r.body as TsServerDiagnostic[];
}

const range = (s: Location, e: Location) => ({ start: { line: s.line - 1, character: s.offset - 1 }, end: { line: e.line - 1, character: e.offset - 1 } });

function severityOf(category: string): DiagnosticSeverity {
  switch (category) {
    case 'error':
      return DiagnosticSeverity.Error;
    case 'warning':
      return DiagnosticSeverity.Warning;
    case 'suggestion':
      return DiagnosticSeverity.Hint;
    default:
      return DiagnosticSeverity.Information;
  }
}

export function fromTsServerDiagnostic(d: TsServerDiagnostic): Diagnostic {
  const out: Diagnostic = { range: range(d.start, d.end), message: d.text, severity: severityOf(d.category), source: d.source ?? 'typescript' };
  if (d.code !== undefined) out.code = d.code;
  const tags: DiagnosticTag[] = [];
  if (d.reportsUnnecessary) tags.push(DiagnosticTag.Unnecessary);
  if (d.reportsDeprecated) tags.push(DiagnosticTag.Deprecated);
  if (tags.length) out.tags = tags;
  const related = (d.relatedInformation ?? []).flatMap((r) =>
    r.span ? [{ location: { uri: fileUri(r.span.file), range: range(r.span.start, r.span.end) }, message: r.message }] : [],
  );
  if (related.length) out.relatedInformation = related;
  return out;
}

/**
 * The adapter's requestDiagnostics: tsserver's synchronous diagnostics requests for the synced
 * document, when the server offers `typescript.tsserverRequest`; undefined when it does not, or
 * when a response is not tsserver's. `problemsOnly` leaves out suggestionDiagnosticsSync: every
 * diagnostic it answers has category `suggestion` (a hint: "unused", "may be converted"), never an
 * error or a warning, and on a large file it is one more pass over the file. The requests go out
 * together: tsserver answers them in order, without a round trip between them.
 */
export async function tsServerDiagnostics(
  session: LspSession,
  doc: OpenDocument,
  signal?: AbortSignal,
  opts?: { problemsOnly?: boolean },
): Promise<Diagnostic[] | undefined> {
  const provider = session.capabilities?.executeCommandProvider;
  if (!session.hasCapability('executeCommandProvider') || !provider?.commands.includes(TSSERVER_REQUEST_COMMAND)) return undefined;
  const commands = opts?.problemsOnly ? TSSERVER_DIAGNOSTIC_REQUESTS.filter((c) => c !== 'suggestionDiagnosticsSync') : TSSERVER_DIAGNOSTIC_REQUESTS;
  const responses = await Promise.all(
    commands.map((command) =>
      session.request(
        ExecuteCommandRequest.type,
        { command: TSSERVER_REQUEST_COMMAND, arguments: [command, { file: doc.path, includeLinePosition: false }] },
        { signal },
      ),
    ),
  );
  const out: Diagnostic[] = [];
  for (const response of responses) {
    const body = tsServerDiagnosticsBody(response);
    if (!body) return undefined;
    out.push(...body.map(fromTsServerDiagnostic));
  }
  return out;
}
