/** The `initialize` request: honest client capabilities (only what lspgate really handles). */
import type { ClientCapabilities, InitializeParams, WorkspaceFolder } from 'vscode-languageserver-protocol';
import { DiagnosticTag, SymbolKind } from 'vscode-languageserver-protocol';

const ALL_SYMBOL_KINDS = Object.values(SymbolKind).filter((v): v is SymbolKind => typeof v === 'number');

export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16', 'utf-8'] },
  window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { symbolKind: { valueSet: ALL_SYMBOL_KINDS } },
    applyEdit: false,
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false, willSaveWaitUntil: false },
    documentSymbol: {
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: ALL_SYMBOL_KINDS },
      labelSupport: true,
    },
    definition: { linkSupport: true },
    declaration: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
    signatureHelp: {
      signatureInformation: { documentationFormat: ['markdown', 'plaintext'], parameterInformation: { labelOffsetSupport: true } },
    },
    callHierarchy: { dynamicRegistration: false },
    rename: { prepareSupport: true },
    // Literal actions with their edits (code_actions previews them); without codeActionLiteralSupport
    // servers answer bare Commands, which only the server itself can carry out.
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            '',
            'quickfix',
            'refactor',
            'refactor.extract',
            'refactor.inline',
            'refactor.rewrite',
            'source',
            'source.organizeImports',
            'source.fixAll',
          ],
        },
      },
      isPreferredSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
    },
    typeHierarchy: { dynamicRegistration: false },
    // versionSupport: servers that can say which document version a publish is for, say it
    // (get_diagnostics never answers diagnostics of an older content).
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] } },
    // Pull diagnostics (LSP 3.17) where a server offers them statically; dynamic registration only
    // for the servers configured with pullDiagnostics (initializeParams).
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
  },
};

export function initializeParams(root: string, rootUri: string, initializationOptions: unknown, opts: { pullDiagnostics?: boolean } = {}): InitializeParams {
  const folders: WorkspaceFolder[] = [{ uri: rootUri, name: root.split('/').pop() || root }];
  return {
    processId: process.pid,
    clientInfo: { name: 'lspgate', version: '0.1.0' },
    locale: 'en',
    rootPath: root,
    rootUri,
    workspaceFolders: folders,
    // a server that offers pull diagnostics only through dynamic registration (servers.json pullDiagnostics)
    capabilities: opts.pullDiagnostics
      ? {
          ...CLIENT_CAPABILITIES,
          textDocument: { ...CLIENT_CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false } },
        }
      : CLIENT_CAPABILITIES,
    initializationOptions,
    trace: 'off',
  };
}
