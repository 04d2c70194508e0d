import { Command, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import { PAGE_LIMIT } from '@lfk/vocabulary';

/** For repeatable flags: each use adds one value. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The `Examples:` block at the end of a command's help. */
export const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** A group of commands (`lfk keys …`): what it is for, its commands, and examples at the end of its help. */
export function commandGroup(name: string, description: string, commands: CommandUnknownOpts[], exampleLines: string[]) {
  const group = new Command(name).description(description).addHelpText('after', examples(exampleLines));
  for (const command of commands) group.addCommand(command);
  return group;
}

/** Every list takes the same page flags. */
export const paged = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) =>
  command
    .option('--limit <n>', `at most this many (1-${PAGE_LIMIT.max})`)
    .option('--cursor <cursor>', 'the page after this cursor')
    .option('--all', 'every page, not just the first');
