import { defineConfig } from 'vitest/config'
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'

// Lingui macros go through Babel: its native transform is not installed under Node 20.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1'

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          lingui(),
          babel({ presets: [linguiTransformerBabelPreset()] }),
          vanillaExtractPlugin(),
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
          include: ['server/**/*.test.ts'],
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
