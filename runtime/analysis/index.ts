// The analysis API shared by the language server, the engine and the CLI:
//  - parseModule, analyseModule: one module → model → the rules' diagnostics (pure, in process);
//  - diagnoseModule: the rules then the suppression comments — what every caller shows;
//  - analyseAgent: one agent's files → diagnostics, in process, without CPython (Run Hook, Simulate Turn);
//  - analyseFiles: paths on disk → discovery, reading, parsing, CPython's verdicts, rules (the CLI).
export {
  analyseModule,
  compareDiagnostics,
  parseModule,
  type AnalysisOptions,
  type ModuleInput,
} from './module';
export { diagnoseModule, type Diagnosis, type DiagnoseOptions } from './diagnose';
export { analyseAgent } from './agent';
export { analyseFiles, type FilesOptions, type FilesResult } from './files';
/** A Python file is a Cayu hook module when this holds for its model. */
export { cayuHookClasses, definesRuntimeHook } from '../python/hooks';
