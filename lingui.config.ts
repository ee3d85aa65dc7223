import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

// The translation check extracts into a scratch folder to compare with the catalogues kept.
const catalogues = process.env.LINGUI_CATALOG_DIR ?? '<rootDir>/locales'

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'ar'],
  fallbackLocales: { default: 'en' },
  // The operator console's texts are a catalogue of their own, loaded with the console only:
  // a customer's pages never carry them (src/features/console/console-messages.ts).
  catalogs: [
    {
      path: `${catalogues}/{locale}/messages`,
      include: ['<rootDir>/src'],
      exclude: ['<rootDir>/src/features/console'],
    },
    { path: `${catalogues}/{locale}/console`, include: ['<rootDir>/src/features/console'] },
  ],
  format: formatter({ lineNumbers: false }),
})
