// Writes a command's output to stdout or to `--output FILE`, and only there.
import { writeFile } from 'node:fs/promises';
import { UsageError } from './exit-codes.js';

/** Writes `text` to `file`, or to stdout when no file is given. */
export async function emit(text: string, file: string | undefined): Promise<void> {
  if (!file || file === '-') {
    await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
    return;
  }
  try {
    await writeFile(file, text, { encoding: 'utf8' });
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
