/** Clause citations of a test title: [document, clause number]. */
export function clauses(title: string): [string, string][];
/** docs/conformance-index.md from every test file's path and source. */
export function conformanceIndex(testFiles: readonly { readonly file: string; readonly source: string }[]): string;
