import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: undefined,
      nodeEnv: 'development',
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const env = { PORT: '8080', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'debug' };
    expect(loadConfig(env)).toEqual({
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
});
