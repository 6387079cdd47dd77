// zod for the payload schemas of mantle-payloads.ts, which require() this module on first use:
// a static import there would load zod in every check and language-server start, and a
// require('zod') itself would make esbuild bundle all of zod (its locales too: +0.6 MB).
export { z } from 'zod';
