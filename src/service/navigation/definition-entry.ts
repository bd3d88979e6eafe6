/**
 * What find_definition lists per definition, and the entry a declaration of the catalog makes (it
 * is its own definition): shared by the tied-name list and find_implementations' catalog answers.
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import { type Preview, preview } from '../previews.js';

/** One definition of a find_definition (or find_implementations) answer. */
export interface DefinitionEntry {
  symbol_id?: string;
  name: string;
  kind: string;
  file: string;
  line: number;
  column: number;
  end_line: number;
  container?: string;
  external?: boolean;
  /** Absent for a file outside the workspace that is not library code (library-paths.ts). */
  preview?: Preview;
}

/** An entry made from a declaration in the catalog: inside the workspace, symbol_id and preview always there. */
export type TiedDefinition = Omit<DefinitionEntry, 'external'> & Required<Pick<DefinitionEntry, 'symbol_id' | 'preview'>>;

/** A declaration of the catalog as a definition entry: it is its own definition, quoted from `lines`. */
export function declarationEntry(s: CatalogSymbol, lines: string[]): TiedDefinition {
  const dot = s.qualified_name.lastIndexOf('.');
  return {
    symbol_id: s.symbol_id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.selection_line,
    column: s.selection_column,
    end_line: s.end_line,
    preview: preview(lines, s.selection_line),
    ...(dot > 0 ? { container: s.qualified_name.slice(0, dot) } : {}),
  };
}
