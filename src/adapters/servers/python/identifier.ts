/**
 * Python identifiers (The Python Language Reference, 2.3 "Identifiers and keywords"): XID_Start or
 * `_`, then XID_Continue, as `str.isidentifier()` decides; the hard keywords (`keyword.kwlist`) are
 * not identifiers, the soft ones (`match`, `case`, `type`, `_`) are.
 */
import { grammarProblem } from '../../identifier.js';

const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

const KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

export function pythonNameProblem(name: string): string | undefined {
  // Python compares identifiers after NFKC normalisation: check the name it will become
  return grammarProblem(name.normalize('NFKC'), IDENTIFIER, 'Python', KEYWORDS);
}
