#!/usr/bin/env node
import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };

// The commands (signup, keys, forms, …) arrive with the CLI issue; the package builds and runs now.
const program = new Command('lfk').description('The lfk command line').version(packageJson.version);
await program.parseAsync(process.argv);
