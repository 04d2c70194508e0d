import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { examples } from './options.ts';
import { io } from '../terminal/io.ts';

/** `lfk completion bash|zsh`: the script is generated from `root`, the whole command tree. */
export const completionCommand = (root: CommandUnknownOpts) =>
  new Command('completion')
    .description('Print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh'] as const))
    .addHelpText('after', examples(["echo 'source <(lfk completion bash)' >> ~/.bashrc", 'lfk completion zsh > ~/.zfunc/_lfk']))
    .action(async (shell) => {
      const { completionScript } = await import('../completion-script.ts');
      io().stdout.write(completionScript(shell, root));
    });
