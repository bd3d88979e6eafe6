/**
 * The closed word lists the operations' contracts name in their schemas (a query's type, a change's
 * operation, a diagram's, a pattern's, a dead-code category, a reference problem's kind, a
 * diagnostic's severity). They live here, with no imports, rather than in the analyses that use them:
 * a contract that imported one from its analysis loaded that analysis' whole module graph at start
 * (the relationships contract alone pulled in 51 modules), before any question was asked.
 */
export const OPERATIONS = ['modify', 'delete', 'refactor'] as const;
export const QUERY_TYPES = ['calls', 'calls-me', 'imports', 'imports-me', 'depends-on', 'depends-on-me'] as const;
export const DIAGRAM_TYPES = ['dependencies', 'calls', 'imports', 'all'] as const;
export const PATTERN_TYPES = ['inheritance', 'framework', 'decorators', 'error-handling'] as const;
export const CATEGORIES = ['dead', 'entry_point', 'test', 'framework_hook', 'exported_api'] as const;
export const REFERENCE_KINDS = ['unresolved_import', 'undefined_name', 'missing_export', 'undefined_member'] as const;
export const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export const ACTION_KINDS = ['quickfix', 'refactor', 'source', 'source.organizeImports', 'source.fixAll'] as const;
/** get_context's token budget when none is given. */
export const DEFAULT_CONTEXT_TOKENS = 4000;
