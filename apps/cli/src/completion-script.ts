import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';

// The scripts are generated from the command tree, so they never fall behind it, and they hold the
// whole tree: completing a word never has to start node.

interface Node {
  path: string;
  command: Command;
}

function walk(command: Command, path = ''): Node[] {
  return [{ path, command }, ...command.commands.flatMap((sub) => walk(sub, `${path}/${sub.name()}`))];
}

const flagsOf = (options: readonly Option[]) => options.filter((o) => !o.hidden).flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));

/** The fixed values an argument takes, e.g. `completion bash|zsh`. */
const argumentChoices = (command: Command) => command.registeredArguments.flatMap((a) => a.argChoices ?? []);

/** Every word that may follow this command: subcommands or argument values, then its own and the global flags. */
function wordsAfter(node: Node, root: Command): string[] {
  const subcommands = [...node.command.commands.map((c) => c.name()), ...argumentChoices(node.command)];
  const own = flagsOf(node.command.options);
  const global = node.command === root ? [] : flagsOf(root.options);
  return [...subcommands, ...own, ...global, '--help'];
}

/** Flags whose value is a file, or one of a few words. */
function valueCompletions(root: Command): { files: string[]; choices: [string, string[]][] } {
  const options = walk(root).flatMap((node) => node.command.options);
  const files = [...new Set(options.filter((o) => /file/.test(o.flags)).map((o) => o.long as string))];
  const choices = new Map<string, string[]>();
  for (const o of options) if (o.argChoices && o.long) choices.set(o.long, o.argChoices);
  return { files, choices: [...choices] };
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The loop each script starts with: it follows the words typed before the cursor down the command
 * tree, leaving the path of the deepest command they name (`/forms/update`) in the shell variable
 * `at`. It reads the words from `words[from]` up to, not including, `words[to]`.
 */
function followTypedWords(nodes: Node[], { at, words, from, to }: { at: string; words: string; from: number; to: string }): string {
  const known = nodes
    .filter((n) => n.path)
    .map((n) => n.path)
    .join('|');
  return `  for ((i = ${from}; i < ${to}; i++)); do
    word="\${${words}[i]}"
    case "$${at}/$word" in
      ${known}) ${at}="$${at}/$word" ;;
    esac
  done`;
}

function bash(root: Command): string {
  const nodes = walk(root);
  const { files, choices } = valueCompletions(root);
  const cases = nodes.map((n) => `    ${quote(n.path)}) words=${quote(wordsAfter(n, root).join(' '))} ;;`).join('\n');
  const valueCases = [
    ...(files.length ? [`    ${files.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`] : []),
    ...choices.map(([flag, words]) => `    ${flag}) COMPREPLY=($(compgen -W ${quote(words.join(' '))} -- "$cur")); return ;;`),
  ].join('\n');
  return `# lfk completion for bash: source <(lfk completion bash)
_lfk_completions() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word words i
${followTypedWords(nodes, { at: 'path', words: 'COMP_WORDS', from: 1, to: 'COMP_CWORD' })}
  case "$prev" in
${valueCases}
  esac
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _lfk_completions lfk
`;
}

function zsh(root: Command): string {
  const nodes = walk(root);
  const { files, choices } = valueCompletions(root);
  const described = (node: Node) =>
    [...node.command.commands.map((c) => `${c.name()}:${c.description().replace(/:/g, '\\:')}`), ...argumentChoices(node.command)].map(quote).join(' ');
  const cases = nodes
    .map((n) => {
      const flags = wordsAfter(n, root).filter((w) => w.startsWith('-'));
      return `    ${quote(n.path)}) commands=(${described(n)}); flags=(${flags.map(quote).join(' ')}) ;;`;
    })
    .join('\n');
  const valueCases = [
    ...(files.length ? [`    ${files.join('|')}) _files; return ;;`] : []),
    ...choices.map(([flag, words]) => `    ${flag}) compadd -- ${words.map(quote).join(' ')}; return ;;`),
  ].join('\n');
  return `#compdef lfk
# lfk completion for zsh: source <(lfk completion zsh), after compinit
_lfk() {
  local at="" word i
  local -a commands flags
${followTypedWords(nodes, { at: 'at', words: 'words', from: 2, to: 'CURRENT' })}
  case "\${words[CURRENT-1]}" in
${valueCases}
  esac
  case "$at" in
${cases}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then
    compadd -- $flags
  else
    (( \${#commands} )) && _describe 'command' commands
  fi
}
compdef _lfk lfk
`;
}

export function completionScript(shell: 'bash' | 'zsh', root: Command): string {
  return shell === 'bash' ? bash(root) : zsh(root);
}
