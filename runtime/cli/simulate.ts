// STUB — to be replaced.
export async function runSimulateCommand(_args: string[]): Promise<number> {
  process.stderr.write('hooksmith simulate: not implemented yet\n');
  return 2;
}
