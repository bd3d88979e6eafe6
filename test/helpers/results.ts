/**
 * Types for reading operation results in tests, in one place. A result is JSON that the runner has
 * already validated against the operation's output schema; the tests' assertions check its content.
 * Callbacks over its lists take the real descriptor and entry types, so a renamed field fails the
 * type check of the tests instead of turning into `undefined` in an assertion.
 */
export type { GraphNode } from '../../src/analysis/diagrams/diagram-format.js';
export type { RippleEffect } from '../../src/analysis/relationships/impact.js';
export type { Relationship } from '../../src/analysis/relationships/relationships.js';
export type { ChangedSymbol } from '../../src/analysis/reports/changed.js';
export type { FileCoverage } from '../../src/analysis/reports/coverage-report.js';
export type { DeadCodeCandidate } from '../../src/analysis/reports/dead-code.js';
export type { CodeElement } from '../../src/analysis/reports/project-context.js';
export type { ValidationError } from '../../src/analysis/reports/validate-refs.js';
export type {
  ClassDescriptor,
  FieldDescriptor,
  FunctionDescriptor,
  OutlineSymbol,
  RelationDescriptor,
  SymbolDescriptor,
} from '../../src/schema/descriptors.js';
export type { ExportedSymbol } from '../../src/service/descriptors/exports.js';
export type { DiagnosticEntry } from '../../src/service/diagnostics/diagnostic-entries.js';
export type { FileDiagnostics } from '../../src/service/diagnostics/diagnostics.js';
export type { ActionEntry } from '../../src/service/editing/code-actions.js';
export type { EditFileEntry } from '../../src/service/editing/rename.js';
export type { CallNode, CallSite } from '../../src/service/navigation/call-tree.js';
export type { SignatureEntry } from '../../src/service/navigation/hover.js';
export type { DefinitionEntry, ReferenceEntry } from '../../src/service/navigation/references.js';
export type { TypeNode } from '../../src/service/relations/type-hierarchy.js';
export type { DaemonStatusAnswer } from '../../src/service/workspace/daemon-status.js';
export type { WorkspaceInfo } from '../../src/service/workspace/workspace-info.js';

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
