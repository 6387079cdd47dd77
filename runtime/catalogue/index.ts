// The catalogue: the single source of truth for every name of both hook APIs.
export * from './mantle-points';
export * from './mantle-payloads';
export * from './model-settings';
export * from './cayu';
export * from './mantle-exports';
export * from './api-lines';
export * from './cayu-lines';
export * from './tested-engines';
