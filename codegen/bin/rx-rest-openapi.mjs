#!/usr/bin/env node
// The command: runs the TypeScript sources through tsx (a dev-only tool, like the generator).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
