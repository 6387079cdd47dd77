// The analysis API shared by the language server and the CLI:
//  - analyseModule: one parsed module → diagnostics (pure, synchronous, never throws);
//  - analyseFiles: paths on disk → discovery, reading, parsing, CPython confirmation, rules.
export type { AnalysisOptions } from './options';
export { analyseModule, type ModuleInput } from './module';
export { analyseFiles, type FilesOptions } from './files';
export type { PythonBackend } from './backend';
export { defaultBackend, parseModule } from './default-backend';
/** A Python file is a Cayu hook module when this holds for its model. */
export { definesRuntimeHook, runtimeHookClasses } from '../rules/cayu-common';
