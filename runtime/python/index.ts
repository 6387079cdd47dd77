// Python source → hook-module model: the public surface of runtime/python.
export * from './model';
export { initParser, isParserReady, parse, substituteReason, type ParseOptions } from './parser';
export { buildModel } from './build-model';
export * from './hooks';
export { decodeSource, type DecodedSource } from './decode';
