/**
 * Chromium's address-bar popup, which this desktop Chromium (156) makes as web pages
 * (chrome://omnibox-popup.top-chrome) for every window it opens: each page a test or a benchmark
 * opens is a window, and its popup took about a second of CPU beside the page
 * (docs/performance.md, "Chromium's address-bar popup"). No phone has it.
 */
export const OMNIBOX_WEBUI = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup']

/**
 * The features Playwright (1.65) turns off in Chromium. Chrome keeps only the last
 * `--disable-features` it is given, so ours repeats them; the browser journey
 * (tests/e2e/browser.spec.ts) checks that the running browser's list still holds every one
 * Playwright passed.
 */
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
]

/** For Playwright's Chromium: its own disabled features, and no address-bar popup. */
export const PLAYWRIGHT_DISABLE_FEATURES = `--disable-features=${[...PLAYWRIGHT_DISABLED, ...OMNIBOX_WEBUI].join(',')}`
