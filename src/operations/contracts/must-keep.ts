/**
 * What must not break, as the answers of symbol edits, context, impact and chunks carry it: their
 * schemas declare `guidance` and `flows` loosely (for tools/list's size); these are the shapes.
 */
import type { ModificationGuidance } from '../../chunks/types.js';

export type { SymbolFlow as MustKeepFlow } from '../../service/search/must-keep.js';

/** The policy's category for the file, with its guidance. */
export type MustKeepGuidance = ModificationGuidance & { category: string };
