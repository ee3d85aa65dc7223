import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

describe('loadConfig', () => {
  it('has working defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      sqlitePath: 'data/store.db',
      distDir: 'dist',
      corsOrigins: [],
      cspConnectSrc: [],
      trustProxy: 0,
      logLevel: 'info',
      nodeEnv: 'development',
    })
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent')
  })

  it('reads every setting, treating empty values as unset', () => {
    const config = loadConfig({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u@db:5432/store',
      SQLITE_PATH: '',
      DIST_DIR: '/srv/dist',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com:8443',
      CSP_CONNECT_SRC: 'https://api.example.com',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    })
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://u@db:5432/store',
      sqlitePath: 'data/store.db',
      distDir: '/srv/dist',
      corsOrigins: ['https://a.example.com', 'https://b.example.com:8443'],
      cspConnectSrc: ['https://api.example.com'],
      trustProxy: 1,
      logLevel: 'warn',
      nodeEnv: 'production',
    })
  })

  it('names every bad setting in one error', () => {
    let error: unknown
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        CORS_ORIGINS: 'https://ok.example.com,https://bad.example.com/path',
        LOG_LEVEL: 'loud',
        NODE_ENV: 'staging',
      })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    for (const key of ['PORT', 'DATABASE_URL', 'CORS_ORIGINS', 'LOG_LEVEL', 'NODE_ENV']) {
      expect(message).toContain(key)
    }
  })
})
