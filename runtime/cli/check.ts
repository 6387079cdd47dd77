// STUB — to be replaced.
export async function runCheckCommand(_args: string[]): Promise<number> {
  process.stderr.write('hooksmith check: not implemented yet\n');
  return 2;
}
