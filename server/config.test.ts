import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: undefined,
      nodeEnv: 'development',
      logLevel: 'info',
      publicUrl: undefined,
      databaseUrl: undefined,
      dataDir: './data',
      oidc: undefined,
      sessionDays: 30,
      documentMaxBytes: 5 * 1024 * 1024,
      idpSignupsPerHour: 20,
      trustProxy: { kind: 'none' },
      ai: {
        provider: undefined,
        maxInputChars: 24_000,
        maxOutputTokens: 2048,
        requestsPerMinute: 20,
        dailyTokenBudget: 200_000,
        firstByteTimeoutMs: 15_000,
        idleTimeoutMs: 30_000,
        totalTimeoutMs: 120_000,
      },
      files: {
        maxBytes: 20 * 1024 * 1024,
        maxPixels: 120_000_000,
        maxWholePixels: 50_000_000,
        uploadsPerMinute: 60,
        uploadsAtOnce: 4,
        decodesAtOnce: 2,
        s3: undefined,
      },
      collab: { redisUrl: undefined, maxMessageBytes: 8 * 1024 * 1024 },
    });
  });

  it('reads the Redis server and the largest live message, and refuses a URL that is not Redis', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://:secret@cache.internal:6380/2',
      COLLAB_MAX_MESSAGE_BYTES: '1048576',
    });
    expect(config.collab).toEqual({
      redisUrl: 'redis://:secret@cache.internal:6380/2',
      maxMessageBytes: 1024 * 1024,
    });
    expect(() => loadConfig({ REDIS_URL: 'http://cache.internal' })).toThrow(/REDIS_URL/);
    // Its password never appears in the error.
    expect(() => loadConfig({ REDIS_URL: 'memcache://:hunter2@x' })).not.toThrow(/hunter2/);
  });

  it('reads an S3-compatible bucket for files, MinIO style', () => {
    const config = loadConfig({
      FILE_MAX_BYTES: '1048576',
      S3_BUCKET: 'inkwell-files',
      S3_ENDPOINT: 'http://minio.internal:9000/',
      S3_ACCESS_KEY_ID: 'inkwell',
      S3_SECRET_ACCESS_KEY: 'a secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.files).toMatchObject({
      maxBytes: 1048576,
      s3: {
        bucket: 'inkwell-files',
        endpoint: 'http://minio.internal:9000',
        region: 'us-east-1',
        credentials: { accessKeyId: 'inkwell', secretAccessKey: 'a secret' },
        forcePathStyle: true,
      },
    });
  });

  it('reads the bounds on uploaded images and uploads', () => {
    const config = loadConfig({
      FILE_MAX_PIXELS: '60000000',
      FILE_MAX_WHOLE_PIXELS: '20000000',
      FILE_UPLOADS_PER_MINUTE: '10',
      FILE_UPLOADS_AT_ONCE: '1',
      FILE_DECODES_AT_ONCE: '3',
    });
    expect(config.files).toMatchObject({
      maxPixels: 60_000_000,
      maxWholePixels: 20_000_000,
      uploadsPerMinute: 10,
      uploadsAtOnce: 1,
      decodesAtOnce: 3,
    });
    expect(() => loadConfig({ FILE_DECODES_AT_ONCE: '0' })).toThrow(
      'FILE_DECODES_AT_ONCE="0": must be at least 1',
    );
    expect(() => loadConfig({ FILE_MAX_WHOLE_PIXELS: '0' })).toThrow(
      'FILE_MAX_WHOLE_PIXELS="0": must be at least 1',
    );
  });

  it('refuses half a pair of S3 keys, and S3 settings without a bucket', () => {
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      'S3 credentials need both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'https://s3.example.com' })).toThrow(
      'S3_ENDPOINT set without S3_BUCKET',
    );
  });

  it('never echoes the S3 secret in an error', () => {
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'hunter2' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'hunter2' })).not.toThrow(
      /hunter2/,
    );
  });

  it('reads every variable', () => {
    const env = { PORT: '8080', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'debug' };
    expect(loadConfig(env)).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      nodeEnv: 'production',
      logLevel: 'debug',
    });
  });

  it('accepts port 0, which picks a free port', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it('treats empty and blank variables as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ', LOG_LEVEL: '' })).toMatchObject({
      port: 3000,
      host: undefined,
      logLevel: 'info',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '3000.5'],
    ['PORT', '-1'],
    ['PORT', '70000'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
  ])('rejects %s=%s with a message naming the variable and its value', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(`${key}="${value}"`);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(
      /Invalid configuration:\n {2}PORT="x": .+\n {2}LOG_LEVEL="loud": .+/,
    );
  });

  it('reads the database, public address and session settings', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://write.example.com/',
      DATABASE_URL: 'postgres://inkwell:pw@db.internal:5432/inkwell',
      DATA_DIR: '/var/lib/inkwell',
      SESSION_DAYS: '7',
      DOCUMENT_MAX_BYTES: '1048576',
    });
    expect(config).toMatchObject({
      publicUrl: 'https://write.example.com',
      databaseUrl: 'postgres://inkwell:pw@db.internal:5432/inkwell',
      dataDir: '/var/lib/inkwell',
      sessionDays: 7,
      documentMaxBytes: 1048576,
    });
  });

  it('takes a hosted provider only with issuer, client id and secret together', () => {
    const hosted = loadConfig({
      OIDC_ISSUER: 'https://tenant.eu.auth0.com/',
      OIDC_CLIENT_ID: 'abc',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_TOKEN_AUTH_METHOD: 'client_secret_post',
    });
    // The issuer is kept exactly, trailing slash included, as providers compare it byte for byte.
    expect(hosted.oidc).toEqual({
      issuer: 'https://tenant.eu.auth0.com/',
      clientId: 'abc',
      clientSecret: 's3cret',
      tokenAuthMethod: 'client_secret_post',
    });
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      /missing OIDC_CLIENT_ID, OIDC_CLIENT_SECRET/,
    );
  });

  it('names bad values without echoing secrets', () => {
    let message = '';
    try {
      loadConfig({
        DATABASE_URL: 'mysql://root:hunter2@x',
        PUBLIC_URL: 'https://x.example/app',
        SESSION_DAYS: '0',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('DATABASE_URL=(hidden)');
    expect(message).not.toContain('hunter2');
    expect(message).toContain(
      'PUBLIC_URL="https://x.example/app": must be an origin without a path',
    );
    expect(message).toContain('SESSION_DAYS="0": must be at least 1');
  });

  it.each([
    ['false', { kind: 'none' }],
    ['FALSE', { kind: 'none' }],
    ['0', { kind: 'none' }],
    ['1', { kind: 'hops', hops: 1 }],
    ['2', { kind: 'hops', hops: 2 }],
    ['10.0.0.1', { kind: 'addresses', ranges: ['10.0.0.1'] }],
    [
      '10.0.0.0/8, 192.168.1.5 ,::1,FD00::/8',
      { kind: 'addresses', ranges: ['10.0.0.0/8', '192.168.1.5', '::1', 'fd00::/8'] },
    ],
  ])('reads TRUST_PROXY=%s', (value, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    'true',
    'yes',
    '11',
    '-1',
    '1.5',
    '10.0.0.0/33',
    '0.0.0.0/0',
    '::/0',
    '::/129',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0.0/x',
    '10.0.0.1,',
    ',10.0.0.1',
    '10.0.0.1,,10.0.0.2',
    'proxy.internal',
    '[::1]',
    '10.0.0.1:8080',
    '999.0.0.1',
    'x'.repeat(5000),
  ])('refuses TRUST_PROXY=%s with a message naming it', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY=".*": must be/);
  });

  it('reads the AI provider and limits', () => {
    const config = loadConfig({
      AI_BASE_URL: 'https://api.openai.com/v1/',
      AI_API_KEY: 'sk-abc',
      AI_MODEL: 'gpt-4o-mini',
      AI_MAX_INPUT_CHARS: '10000',
      AI_MAX_OUTPUT_TOKENS: '512',
      AI_REQUESTS_PER_MINUTE: '5',
      AI_DAILY_TOKEN_BUDGET: '50000',
      AI_FIRST_BYTE_TIMEOUT_MS: '5000',
      AI_IDLE_TIMEOUT_MS: '6000',
      AI_TOTAL_TIMEOUT_MS: '60000',
    });
    expect(config.ai).toEqual({
      provider: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-abc', model: 'gpt-4o-mini' },
      maxInputChars: 10_000,
      maxOutputTokens: 512,
      requestsPerMinute: 5,
      dailyTokenBudget: 50_000,
      firstByteTimeoutMs: 5000,
      idleTimeoutMs: 6000,
      totalTimeoutMs: 60_000,
    });
  });

  it('turns AI on without a key, for local servers such as Ollama', () => {
    const config = loadConfig({ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: 'llama3.2' });
    expect(config.ai.provider).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      model: 'llama3.2',
    });
  });

  it('refuses half an AI setup, naming what is missing', () => {
    expect(() => loadConfig({ AI_BASE_URL: 'https://api.openai.com/v1' })).toThrow(
      /the AI assistant needs AI_BASE_URL and AI_MODEL; missing AI_MODEL/,
    );
    expect(() => loadConfig({ AI_API_KEY: 'sk-abc' })).toThrow(/missing AI_BASE_URL, AI_MODEL/);
  });

  it('names bad AI values without echoing the key', () => {
    let message = '';
    try {
      loadConfig({
        AI_BASE_URL: 'ftp://models.example',
        AI_API_KEY: 'sk-hunter2 with a space',
        AI_MODEL: 'x'.repeat(201),
        AI_MAX_OUTPUT_TOKENS: '0',
        AI_IDLE_TIMEOUT_MS: 'soon',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'AI_BASE_URL="ftp://models.example": must be an http:// or https:// URL',
    );
    expect(message).toContain('AI_MAX_OUTPUT_TOKENS="0": must be at least 1');
    expect(message).toContain('AI_IDLE_TIMEOUT_MS="soon": must be a whole number');
    expect(message).toMatch(/AI_MODEL=".+": must be at most 200 characters/);
    expect(message).toContain('AI_API_KEY=(hidden): must be printable ASCII without spaces');
    expect(message).not.toContain('hunter2');
  });
});
