// Every schema of common/api in one module, loaded on first use by api.ts: zod and the schemas
// weigh about 24 KB gzip, more than the editor route's first download can spare, and the first
// request (GET /api/me) starts before they are needed to read its answer.
export * from '../../common/api/documents.ts';
export * from '../../common/api/errors.ts';
export * from '../../common/api/links.ts';
export * from '../../common/api/session.ts';
export * from '../../common/api/sharing.ts';
export * from '../../common/api/vault.ts';
export * from '../../common/api/versions.ts';
