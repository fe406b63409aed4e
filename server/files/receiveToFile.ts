import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { InvalidRequestError } from '../errors.ts';

/**
 * Writes `source` to a new file at `path`, counting bytes as they arrive; `'too_large'` as soon as
 * there are more than `maxBytes`, without reading the rest. The source is paused, not destroyed:
 * destroying a request destroys its socket, and the 413 could not be sent.
 */
export function receiveToFile(
  source: Readable,
  path: string,
  maxBytes: number,
): Promise<number | 'too_large'> {
  const out = createWriteStream(path, { flags: 'wx' });
  return new Promise((resolve, reject) => {
    let size = 0;
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      finish();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        source.pause();
        settle(() => out.destroy());
        resolve('too_large');
        return;
      }
      // Backpressure: a slow disk pauses the request instead of filling memory.
      if (!out.write(chunk)) {
        source.pause();
        out.once('drain', () => {
          if (!settled) source.resume();
        });
      }
    };
    const onEnd = () => settle(() => out.end(() => resolve(size)));
    const onError = (error: Error) => {
      settle(() => out.destroy());
      reject(InvalidRequestError('The upload could not be read.', error));
    };
    const onClose = () => {
      settle(() => out.destroy());
      reject(InvalidRequestError('The upload ended early.'));
    };
    out.on('error', (error) => {
      settle(() => source.pause());
      reject(error);
    });
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}
