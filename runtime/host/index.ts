// runtime/host: the Python side that runs hook code, and the class that owns that process.
export * from './protocol';
export { PythonHost, PythonHostError, locateHostScript, type PythonHostOptions } from './python-host';
