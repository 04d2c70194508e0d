#!/usr/bin/env node
// Plain JavaScript, so that an older Node says what is wrong instead of failing on TypeScript syntax.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: unsupported_node: lfk needs Node.js 22.19 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
await import('../src/main.ts');
