// STUB — to be replaced.
export async function runPayloadCommand(_args: string[]): Promise<number> {
  process.stderr.write('hooksmith payload: not implemented yet\n');
  return 2;
}
