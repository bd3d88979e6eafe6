/**
 * The syntax half of find_patterns: decorator / attribute usage, error-handling styles and HTTP
 * route registrations found on a tree-sitter tree of one file. No language server answers these
 * (they are forms of code, not symbols or references). Pure: text in, hits out.
 */
import { grammarFor, withSyntaxTree, type Grammar, type SyntaxNode } from '../../syntax/syntax.js';

export type ScanPatternType = 'decorators' | 'error-handling' | 'framework';

export interface PatternHit {
  pattern_type: ScanPatternType;
  /** The pattern's key in the answer: `@app.route`, `throw HttpError`, `routes Route::get`. */
  name: string;
  description: string;
  /** 1-based. */
  line: number;
}

const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'all', 'route', 'any', 'match']);
const GO_ROUTERS = new Set(['HandleFunc', 'Handle', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'Get', 'Post', 'Put', 'Patch', 'Delete']);

type Family = 'js' | 'go' | 'python' | 'php';

function familyOf(g: Grammar): Family {
  return g === 'go' || g === 'python' || g === 'php' ? g : 'js';
}

const NODE_TYPES: Record<Family, string[]> = {
  js: ['decorator', 'try_statement', 'catch_clause', 'throw_statement', 'call_expression'],
  python: ['decorator', 'try_statement', 'except_clause', 'raise_statement'],
  go: ['if_statement', 'call_expression'],
  php: ['attribute', 'try_statement', 'catch_clause', 'throw_expression', 'scoped_call_expression'],
};

/** Every pattern hit of one file, or [] when lspgate has no grammar for it. */
export async function scanFile(relPath: string, text: string): Promise<PatternHit[]> {
  const g = grammarFor(relPath);
  if (!g) return [];
  const fam = familyOf(g);
  return withSyntaxTree(g, text, (root) => {
    const hits: PatternHit[] = [];
    for (const n of root.descendantsOfType(NODE_TYPES[fam])) {
      if (!n) continue;
      const hit = fam === 'js' ? jsHit(n) : fam === 'python' ? pythonHit(n) : fam === 'go' ? goHit(n) : phpHit(n);
      if (hit) hits.push({ ...hit, line: n.startPosition.row + 1 });
    }
    return hits;
  });
}

type Hit = Omit<PatternHit, 'line'>;

/** `app.route` of `app.route('/x')`, `Component` of `Component({...})`. */
function calleeText(n: SyntaxNode): string {
  const target = n.type === 'call_expression' || n.type === 'call' ? (n.childForFieldName('function') ?? n) : n;
  return target.text.replace(/\s+/g, '');
}

function firstArgument(call: SyntaxNode): SyntaxNode | undefined {
  const args = call.childForFieldName('arguments');
  const first = args?.namedChildren.find((c): c is SyntaxNode => !!c && c.type !== 'comment');
  return first?.type === 'argument' ? (first.namedChildren[0] ?? undefined) : (first ?? undefined);
}

function stringValue(n: SyntaxNode | undefined): string | undefined {
  if (!n || !/string/.test(n.type)) return undefined;
  return n.text.replace(/^[a-zA-Z]*["'`]+|["'`]+$/g, '');
}

const errorHit = (name: string, description: string): Hit => ({ pattern_type: 'error-handling', name, description });

function routeHit(registrar: string, call: SyntaxNode, requireSlash: boolean): Hit | undefined {
  const path = stringValue(firstArgument(call));
  if (path === undefined || (requireSlash && !path.startsWith('/'))) return undefined;
  return { pattern_type: 'framework', name: `routes ${registrar}`, description: `HTTP routes registered with ${registrar}(path, handler)` };
}

function jsHit(n: SyntaxNode): Hit | undefined {
  switch (n.type) {
    case 'decorator': {
      const expr = n.namedChildren[0];
      return expr ? { pattern_type: 'decorators', name: `@${calleeText(expr)}`, description: `declarations decorated with @${calleeText(expr)}` } : undefined;
    }
    case 'try_statement':
      return errorHit('try/catch', 'errors handled with try/catch blocks');
    case 'catch_clause':
      return n.childForFieldName('parameter') ? undefined : errorHit('catch without binding', 'catch clauses that drop the error (`catch {}`)');
    case 'throw_statement': {
      const ctor = n.namedChildren[0]?.type === 'new_expression' ? n.namedChildren[0].childForFieldName('constructor')?.text : undefined;
      return ctor ? errorHit(`throw ${ctor}`, `errors raised as \`throw new ${ctor}(...)\``) : errorHit('throw (rethrow or value)', 'throw of an existing value (rethrow, or a non-constructed error)');
    }
    case 'call_expression': {
      const fn = n.childForFieldName('function');
      if (fn?.type !== 'member_expression') return undefined;
      const prop = fn.childForFieldName('property')?.text ?? '';
      if (prop === 'catch') return errorHit('promise .catch()', 'promise rejections handled with .catch(handler)');
      return HTTP_VERBS.has(prop) ? routeHit(calleeText(n), n, true) : undefined;
    }
    default:
      return undefined;
  }
}

function pythonHit(n: SyntaxNode): Hit | undefined {
  switch (n.type) {
    case 'decorator': {
      const expr = n.namedChildren[0];
      if (!expr) return undefined;
      const name = calleeText(expr);
      const verb = name.split('.').pop() ?? '';
      if (expr.type === 'call' && name.includes('.') && HTTP_VERBS.has(verb)) {
        const route = routeHit(`@${name}`, expr, true);
        if (route) return route;
      }
      return { pattern_type: 'decorators', name: `@${name}`, description: `declarations decorated with @${name}` };
    }
    case 'try_statement':
      return errorHit('try/except', 'errors handled with try/except blocks');
    case 'except_clause': {
      const value = n.namedChildren.find((c) => c && c.type !== 'block');
      if (!value) return errorHit('bare except', 'bare `except:` clauses that catch everything');
      const types = value.type === 'as_pattern' ? value.namedChildren[0] : value;
      return errorHit(`except ${types?.text.replace(/\s+/g, ' ') ?? value.text}`, `exceptions caught as \`except ${types?.text ?? ''}\``);
    }
    case 'raise_statement': {
      const v = n.namedChildren[0];
      if (!v) return errorHit('re-raise', 'bare `raise` re-raising the current exception');
      const name = v.type === 'call' ? calleeText(v) : v.text;
      return errorHit(`raise ${name}`, `exceptions raised as \`raise ${name}\``);
    }
    default:
      return undefined;
  }
}

function goHit(n: SyntaxNode): Hit | undefined {
  if (n.type === 'if_statement') {
    const cond = n.childForFieldName('condition')?.text.replace(/\s+/g, ' ') ?? '';
    return /^\w*[eE]rr\w* != nil$/.test(cond) ? errorHit('if err != nil', 'errors checked and handled where they are returned (`if err != nil`)') : undefined;
  }
  const fn = calleeText(n);
  if (fn === 'panic') return errorHit('panic', 'failures raised with panic(...)');
  if (fn === 'errors.New') return errorHit('errors.New', 'errors created with errors.New');
  if (fn === 'fmt.Errorf') {
    const wraps = /%w/.test(stringValue(firstArgument(n)) ?? '');
    return wraps ? errorHit('fmt.Errorf %w', 'errors wrapped with fmt.Errorf("...: %w", err)') : errorHit('fmt.Errorf', 'errors created with fmt.Errorf (not wrapping)');
  }
  const field = n.childForFieldName('function')?.childForFieldName('field')?.text ?? '';
  return GO_ROUTERS.has(field) ? routeHit(fn, n, true) : undefined;
}

function phpHit(n: SyntaxNode): Hit | undefined {
  switch (n.type) {
    case 'attribute': {
      const name = n.namedChildren[0]?.text ?? n.text;
      return { pattern_type: 'decorators', name: `#[${name}]`, description: `declarations with the attribute #[${name}]` };
    }
    case 'try_statement':
      return errorHit('try/catch', 'errors handled with try/catch blocks');
    case 'catch_clause': {
      const types = n.childForFieldName('type')?.text.replace(/\s+/g, '') ?? '';
      return errorHit(`catch ${types}`, `exceptions caught as \`catch (${types} $e)\``);
    }
    case 'throw_expression': {
      const v = n.namedChildren[0];
      const cls = v?.type === 'object_creation_expression' ? v.namedChildren[0]?.text : undefined;
      return cls ? errorHit(`throw ${cls}`, `exceptions raised as \`throw new ${cls}(...)\``) : errorHit('throw (rethrow or value)', 'throw of an existing value (rethrow)');
    }
    case 'scoped_call_expression': {
      const scope = n.childForFieldName('scope')?.text ?? '';
      const name = n.childForFieldName('name')?.text ?? '';
      return scope === 'Route' && HTTP_VERBS.has(name) ? routeHit(`Route::${name}`, n, false) : undefined;
    }
    default:
      return undefined;
  }
}
