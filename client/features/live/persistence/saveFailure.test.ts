import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { classifySaveFailure } from './saveFailure.ts';

const timing = { retryDelay: 2000, maxRetryDelay: 60_000 };
const current: DocumentRecord = {
  id: 'd',
  title: '',
  version: 3,
  createdAt: '',
  updatedAt: '',
  deletedAt: null,
  content: { type: 'doc' },
};

describe('classifySaveFailure', () => {
  it('hands a version conflict to the writer with the server copy', () => {
    const error = new ApiError('version_conflict', 'Changed.', 409, {}, current);
    expect(classifySaveFailure(error, 1, timing)).toEqual({ kind: 'conflict', current });
  });

  it('holds refusals that retrying cannot fix', () => {
    for (const [code, status] of [
      ['payload_too_large', 413],
      ['invalid_document', 422],
      ['not_found', 404],
    ] as const) {
      const failure = classifySaveFailure(new ApiError(code, 'No.', status), 1, timing);
      expect(failure).toEqual({ kind: 'held', message: 'No.' });
    }
  });

  it('retries a lost connection and server errors with a doubling wait, capped', () => {
    expect(classifySaveFailure(new NetworkError('down'), 1, timing)).toEqual({
      kind: 'retry',
      wait: 2000,
      offline: true,
    });
    const internal = new ApiError('internal', 'Oops.', 500);
    expect(classifySaveFailure(internal, 3, timing)).toEqual({
      kind: 'retry',
      wait: 8000,
      offline: false,
    });
    expect(classifySaveFailure(internal, 20, timing)).toMatchObject({ wait: 60_000 });
  });

  it('waits at least as long as Retry-After asks', () => {
    const limited = new ApiError('rate_limited', 'Slow down.', 429, {}, undefined, 30);
    expect(classifySaveFailure(limited, 1, timing)).toMatchObject({ wait: 30_000 });
  });
});
