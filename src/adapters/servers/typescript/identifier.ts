/**
 * ECMAScript IdentifierName (ECMA-262 §12.7): ID_Start, `$` or `_`, then ID_Continue, `$`, ZWNJ or
 * ZWJ — reserved words included, since a method or property may be named `delete` or `class`
 * (tsserver refuses the places where they may not stand). A private member keeps its `#`.
 */
import { grammarProblem } from '../../identifier.js';

const IDENTIFIER_NAME = /^#?[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

export function tsNameProblem(name: string): string | undefined {
  return grammarProblem(name, IDENTIFIER_NAME, 'TypeScript/JavaScript');
}
