// Types of test-cli.mjs for the TypeScript that imports it (test/support/riodp-entry.ts).
export declare function distIsFresh(root: string): boolean;
export declare function buildTestCli(root: string): Promise<{ readonly dir: string; readonly entry: string } | null>;
