#!/usr/bin/env node
// The `hooksmith` CLI: the bundled dist/cli.js (run `npm run build` first).
require('../dist/cli.js');
