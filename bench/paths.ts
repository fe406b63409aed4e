import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, so the bench runs from any working directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Everything the benchmarks generate (gitignored). */
export const TMP_DIR = join(ROOT, '.tmp', 'bench');
