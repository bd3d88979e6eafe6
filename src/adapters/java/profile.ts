/**
 * The Java profile: the syntax tier only (no Java server ships with lspgate). Declarations as
 * Eclipse JDT LS lists them: types (classes, records, interfaces, enums, annotation types) with
 * their fields (one per declarator), constructors, methods (an annotation type's elements, `String
 * value() default "";`, are its methods) and enum constants; the package clause is
 * the file's package. Local classes and anonymous classes' members are not listed.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { grammarOnlyProfile } from '../grammar-only.js';
import { type DeclaredName, queryDeclarations } from '../query-declarations.js';

const QUERY = `
[(class_declaration) (record_declaration)] @class
[(interface_declaration) (annotation_type_declaration)] @interface
(enum_declaration) @enum
[(method_declaration) (annotation_type_element_declaration)] @method
(constructor_declaration) @constructor
(field_declaration declarator: (variable_declarator) @field)
(constant_declaration declarator: (variable_declarator) @constant)
(enum_constant) @enum_member
(package_declaration) @_package
`;

/** Where a declaration is local: in a body (a local class and its members) or in an anonymous class (`new Iterator<>() { … }`). */
const LOCAL_SCOPES = new Set(['block', 'constructor_body', 'object_creation_expression', 'lambda_expression']);

/**
 * The declaration's name; none for a local one: a class declared in a method, an anonymous class's
 * members, can be named from nowhere else, and listing them would put a dozen anonymous
 * iterators' `hasNext` in every search (taggers leave them out too).
 */
function nameOf(node: SyntaxNode): DeclaredName | undefined {
  for (let p = node.parent; p; p = p.parent) if (LOCAL_SCOPES.has(p.type)) return undefined;
  const name = node.childForFieldName('name');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

export const javaProfile = grammarOnlyProfile({
  name: 'java',
  grammars: { '.java': 'java' },
  declarations: queryDeclarations({
    query: QUERY,
    nameOf,
    packageOf: (_file, tree) => {
      const pkg = tree.namedChildren
        .find((c) => c?.type === 'package_declaration')
        ?.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
      return pkg ? { package: pkg.text } : {};
    },
  }),
  tests: {
    runners: [
      {
        runner: 'junit',
        description: 'JUnit (Maven Surefire, Gradle) runs *Test.java, *Tests.java and Test*.java',
        files: /^(Test\w*|\w+Tests?|\w+IT)\.java$/,
      },
    ],
    directories: ['test', 'tests', 'testdata', 'fixtures'],
    functionNames: /^test/,
  },
  // Maven, Gradle and Ant
  manifests: ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'build.xml'],
  comment: '//',
  // Javadoc is `/** … */`; a `/* (non-Javadoc) @see … */` marker or a commented-out block documents nothing
  blockDoc: '/**',
  elision: '{ … }',
  server: {
    name: 'Eclipse JDT Language Server (jdtls)',
    install:
      'install jdtls (https://download.eclipse.org/jdtls/, or your package manager) and add a servers.json entry: {"id":"jdtls","languages":["java"],"extensions":[".java"],"command":"jdtls","install":"jdtls"}',
  },
});
