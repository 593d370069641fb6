// Runs the CLI from source, for tests that spawn it as users do.
import { main } from '../../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
