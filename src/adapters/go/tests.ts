/**
 * Go's test files, in one place: the profile's test runner (which test-files.ts reads for every
 * question about tests) and the package rules below it, which leave test files out of a package as
 * the go command does. A module of its own so that the package readers need not import the
 * profile (the profile imports them).
 */
import type { TestRunnerRule } from '../language-profile.js';

/** `go test` compiles *_test.go files; the go command builds a package from the directory's other .go files. */
export const GO_TEST_RUNNER: TestRunnerRule = { runner: 'go test', description: '`go test` compiles *_test.go files', files: /_test\.go$/ };

/** Whether a file (a name or a path) is one of Go's test files. */
export function isGoTestFile(file: string): boolean {
  return GO_TEST_RUNNER.files.test(file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1));
}
