#!/usr/bin/env node
// Plain JavaScript, so that an older Node says what is wrong instead of failing on newer syntax.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: unsupported_node: lfk needs Node.js 22.19 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
// Node keeps compiled code (stripped TypeScript included) between runs, which halves start-up.
// The cache lives in the user's own cache directory: a shared /tmp one could be planted by others.
const { enableCompileCache, registerHooks } = await import('node:module');
const { existsSync } = await import('node:fs');
const { homedir } = await import('node:os');
const { join } = await import('node:path');
const cacheHome = process.env.XDG_CACHE_HOME?.startsWith('/') ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
enableCompileCache?.(join(cacheHome, 'lfk', 'compile-cache'));
// In the repository the TypeScript sources run as they are, and the workspace's packages resolve to
// theirs (the `lfk-source` export condition); an installed package has only its build, dist/.
const sources = new URL('../src/main.ts', import.meta.url);
if (existsSync(sources)) {
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: [...context.conditions, 'lfk-source'] }),
  });
  await import(sources.href);
} else {
  await import('../dist/main.js');
}
