import { defineConfig } from 'vitest/config'
import type { Plugin } from 'vite'
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'

// Lingui macros go through Babel: its native transform is not installed under Node 20.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1'

/** vite-plugin-pwa's registration module, built with the app: a test mocks what it answers. */
const PWA_REGISTER = 'virtual:pwa-register'
const pwaRegister: Plugin = {
  name: 'pwa-register-for-tests',
  resolveId: (id) => (id === PWA_REGISTER ? `\0${PWA_REGISTER}` : undefined),
  load: (id) =>
    id === `\0${PWA_REGISTER}`
      ? 'export function registerSW() { throw new Error("mock virtual:pwa-register") }'
      : undefined,
}

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          lingui(),
          babel({ presets: [linguiTransformerBabelPreset()] }),
          vanillaExtractPlugin(),
          pwaRegister,
        ],
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Each file gets its own database; the PostgreSQL ones share one server.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
})
