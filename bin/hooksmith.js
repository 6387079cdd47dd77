#!/usr/bin/env node
// The `hooksmith` CLI: runs the bundled dist/cli.js (run `npm run build` first). Node ≥ 22 keeps
// compiled code between runs with its own compile cache (NODE_DISABLE_COMPILE_CACHE=1 turns it
// off); older Node simply loads the bundle.
'use strict';
const nodeModule = require('node:module');

nodeModule.enableCompileCache?.();
require('../dist/cli.js');
