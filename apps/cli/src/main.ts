import { run } from './run.ts';

// A reader that goes away (`lfk keys list | head -2`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2));
