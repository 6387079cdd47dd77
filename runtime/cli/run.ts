// STUB — to be replaced.
export async function runRunCommand(_args: string[]): Promise<number> {
  process.stderr.write('hooksmith run: not implemented yet\n');
  return 2;
}
