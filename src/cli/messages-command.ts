import type { Command } from 'commander';
import type { MessagesFlags } from './messages.ts';

/**
 * `riodp messages` (Part 2 §3.3.2, Annex 2 §3.3, §4.3.1): the Type 11 data messages of a captured
 * trace, put together from their segments. The command module loads only when the command runs.
 */
export function messagesCommand(program: Command): void {
  program
    .command('messages')
    .description('put the Type 11 data messages of a trace (serial packet hex, one a line) together from their segments, as each destination gets them (Part 2 §3.3.2)')
    .argument('[file]', "the packets; '-' or none: stdin")
    .option('--json', 'print one JSON object per message (line, tt, sourceID, destinationID, mailbox, length, message hex)', false)
    .option('--smp', 'decode each message as an Annex 2 session management message (field smp with --json, a field tree without)', false)
    .option('--lenient', 'accept reserved and undefined values (labelled) in packets and messages instead of rejecting them', false)
    .addHelpText('after', '\nPackets other than Type 11 are passed over. Exit 0; 1 if a line was bad, a message was lost or could not be decoded, or FILE cannot be read; 2 for a usage error.\n')
    .action(async (file: string | undefined, flags: MessagesFlags) => {
      const { runMessages } = await import('./messages.ts');
      process.exitCode = await runMessages(file, flags);
    });
}
