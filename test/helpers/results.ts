/**
 * Types for reading operation results in tests, in one place. A result is JSON that the runner has
 * already validated against the operation's output schema; the tests' assertions check its content.
 * Callbacks over its lists take the real descriptor and entry types, so a renamed field fails the
 * type check of the tests instead of turning into `undefined` in an assertion.
 */
export type {
  ClassDescriptor,
  FieldDescriptor,
  FunctionDescriptor,
  OutlineSymbol,
  RelationDescriptor,
  SymbolDescriptor,
} from '../../src/schema/descriptors.js';
export type { CallNode, CallSite } from '../../src/service/call-tree.js';
export type { ActionEntry } from '../../src/service/code-actions.js';
export type { DiagnosticEntry } from '../../src/service/diagnostic-entries.js';
export type { FileDiagnostics } from '../../src/service/diagnostics.js';
export type { ExportedSymbol } from '../../src/service/exports.js';
export type { SignatureEntry } from '../../src/service/hover.js';
export type { DefinitionEntry, ReferenceEntry } from '../../src/service/references.js';
export type { EditFileEntry } from '../../src/service/rename.js';
export type { TypeNode } from '../../src/service/type-hierarchy.js';
export type { WorkspaceInfo } from '../../src/service/workspace-info.js';
export type { DaemonStatusAnswer } from '../../src/service/daemon-status.js';
export type { ChangedSymbol } from '../../src/graph/changed.js';
export type { FileCoverage } from '../../src/graph/coverage-report.js';
export type { DeadCodeCandidate } from '../../src/graph/dead-code.js';
export type { CodeElement } from '../../src/graph/project-context.js';
export type { ValidationError } from '../../src/graph/validate-refs.js';
export type { GraphNode } from '../../src/graph/diagram-format.js';
export type { RippleEffect } from '../../src/graph/impact.js';
export type { Relationship } from '../../src/graph/relationships.js';

/**
 * A structured result read field by field. Typing every operation's result by name would tie the
 * tests to the operation table's internals; the output schemas are checked at run time instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the one loose type the tests read results through
export type JsonResult = Record<string, any>;

/** A symbol as search_symbols, get_repo_outline and AMBIGUOUS_SYMBOL candidates list it. */
export interface ListedSymbol {
  symbol_id: string;
  name: string;
  qualified_name?: string;
  kind: string;
  file?: string;
  line?: number;
  children?: ListedSymbol[];
}
