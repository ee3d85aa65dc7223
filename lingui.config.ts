import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

// The translation check extracts into a scratch folder to compare with the catalogues kept.
const catalogues = process.env.LINGUI_CATALOG_DIR ?? '<rootDir>/locales'

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'ar'],
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: `${catalogues}/{locale}/messages`, include: ['<rootDir>/src'] }],
  format: formatter({ lineNumbers: false }),
})
