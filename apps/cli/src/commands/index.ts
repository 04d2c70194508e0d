// One import for program.ts to load lazily: the command modules, by group.
export * as auth from './auth.ts';
export * as forms from './forms.ts';
export * as keys from './keys.ts';
export * as submissions from './submissions.ts';
export * as workspaces from './workspaces.ts';
