// The analysis API shared by the language server, the engine and the CLI:
//  - parseModule, analyseModule: one module → model → diagnostics (pure, in process);
//  - analyseAgent: one agent's files → diagnostics, in process, without CPython (Run Hook, Simulate Turn);
//  - analyseFiles: paths on disk → discovery, reading, parsing, CPython's verdicts, rules (the CLI).
export {
  analyseModule,
  compareDiagnostics,
  parseModule,
  type AnalysisOptions,
  type ModuleInput,
} from './module';
export { analyseAgent } from './agent';
export { analyseFiles, type FilesOptions, type FilesResult } from './files';
/** A Python file is a Cayu hook module when this holds for its model. */
export { cayuHookClasses, definesRuntimeHook } from '../python/hooks';
