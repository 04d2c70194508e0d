import { defineConfig } from 'vitest/config';
import { fastAndSlow, sourceConditions } from '../../vitest.shared.ts';

// Commands run in process (test/harness.ts); the slow project runs the real bin.
export default defineConfig({
  ...sourceConditions,
  test: fastAndSlow([
    // On a pseudo-terminal (util-linux `script`): prompts, colour, Ctrl-C, shell completion.
    'test/terminal/**/*.test.ts',
    // Waits out a real --timeout against a server that never answers.
    'test/errors-and-network/unreachable-servers.test.ts',
    // The real bin, outside a terminal.
    'test/bin.test.ts',
    // The real bin, waiting out a server restart with backoff.
    'test/follow-restart.test.ts',
  ]),
});
