/**
 * Named declarations of a text that no server has open — a file as it was at a git ref, which
 * changed_symbols compares the working tree with: functions, classes and the like, with their
 * members, qualified like the catalog qualifies them (`Cart.total`, Go `Square.Area` by receiver).
 * Declarations inside function bodies are not listed (they belong to their function). Syntax only:
 * nothing here is resolved.
 */
import type { Grammar, SyntaxNode } from './syntax.js';
import { grammarFor, withSyntaxTree } from './syntax.js';

export interface SyntaxDeclaration {
  name: string;
  qualified_name: string;
  kind: string;
  /** 1-based, inclusive. */
  line: number;
  end_line: number;
  /** 1-based line of the name. */
  selection_line: number;
}

type Family = 'js' | 'go' | 'python' | 'php';

/** Declaration node types per grammar family, with the kind they declare. */
const DECLARATIONS: Record<Family, Record<string, string>> = {
  js: {
    function_declaration: 'function',
    generator_function_declaration: 'function',
    class_declaration: 'class',
    abstract_class_declaration: 'class',
    interface_declaration: 'interface',
    type_alias_declaration: 'type',
    enum_declaration: 'enum',
    method_definition: 'method',
    method_signature: 'method',
    abstract_method_signature: 'method',
    internal_module: 'namespace',
    variable_declarator: 'variable',
  },
  go: { function_declaration: 'function', method_declaration: 'method', type_spec: 'type' },
  python: { function_definition: 'function', class_definition: 'class' },
  php: {
    function_definition: 'function',
    class_declaration: 'class',
    interface_declaration: 'interface',
    trait_declaration: 'trait',
    enum_declaration: 'enum',
    method_declaration: 'method',
  },
};

/** Declarations whose members are listed under their name; the others' bodies are not entered. */
const CONTAINERS = new Set(['class', 'interface', 'trait', 'enum', 'namespace']);

function familyOf(g: Grammar): Family {
  return g === 'go' || g === 'python' || g === 'php' ? g : 'js';
}

/** The declarations of a text, or undefined when lspgate has no grammar for the file. */
export async function syntaxDeclarations(relPath: string, text: string): Promise<SyntaxDeclaration[] | undefined> {
  const g = grammarFor(relPath);
  if (!g) return undefined;
  const fam = familyOf(g);
  return withSyntaxTree(g, text, (root) => {
    const out: SyntaxDeclaration[] = [];
    walk(root, fam, [], false, out);
    return out;
  });
}

function walk(node: SyntaxNode, fam: Family, prefix: string[], inClass: boolean, out: SyntaxDeclaration[]): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    const declared = DECLARATIONS[fam][child.type];
    const name = declared ? nameOf(child, fam) : undefined;
    if (!declared || !name) {
      // statements around declarations (export, decorators, namespace and class bodies, and
      // conditional declarations: PHP's `if (!function_exists('f')) { function f() … }`, Python's
      // `if sys.version_info …: def f(): …`); a function's own body is never entered
      if (!isExpressionBody(child.type)) walk(child, fam, prefix, inClass, out);
      continue;
    }
    const kind = kindOf(child, fam, declared, inClass);
    const owner = fam === 'go' && child.type === 'method_declaration' ? goReceiver(child) : undefined;
    const chain = owner ? [owner] : prefix;
    out.push({
      name,
      qualified_name: [...chain, name].join('.'),
      kind,
      line: child.startPosition.row + 1,
      end_line: child.endPosition.row + 1,
      selection_line: (child.childForFieldName('name') ?? child).startPosition.row + 1,
    });
    // a container's body is walked itself (a Python class body is a `block`, like a function's)
    if (CONTAINERS.has(kind)) walk(child.childForFieldName('body') ?? child, fam, [...chain, name], kind !== 'namespace', out);
  }
}

/** Functions written as expressions (callbacks, initialisers): what is declared in them is local. */
function isExpressionBody(type: string): boolean {
  return type === 'arrow_function' || type === 'function_expression' || type === 'function' || type === 'lambda' || type === 'anonymous_function' || type === 'anonymous_function_creation_expression';
}

function nameOf(n: SyntaxNode, fam: Family): string | undefined {
  const name = n.childForFieldName('name');
  if (name) return name.text;
  // Go: the method name is a field_identifier without a field name in some grammar versions
  if (fam === 'go') return n.namedChildren.find((c) => c?.type === 'field_identifier' || c?.type === 'type_identifier')?.text;
  return undefined;
}

function kindOf(n: SyntaxNode, fam: Family, declared: string, inClass: boolean): string {
  if (fam === 'python' && declared === 'function' && inClass) return 'method';
  if (fam === 'go' && declared === 'type') {
    const t = n.childForFieldName('type')?.type;
    return t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
  }
  if (fam === 'js' && declared === 'variable') return n.parent?.text.startsWith('const') ? 'constant' : 'variable';
  return declared;
}

/** `(s *Square[T])` → `Square`. */
function goReceiver(n: SyntaxNode): string | undefined {
  const recv = n.childForFieldName('receiver');
  return recv?.descendantsOfType('type_identifier').find((x): x is SyntaxNode => !!x)?.text;
}
