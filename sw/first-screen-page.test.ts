import { describe, expect, it } from 'vitest'
import { isUsable, scriptsOf } from './first-screen-page'

const page = (preloads: string) =>
  `<html><head></head><body><div id="root"></div>` +
  `<template id="app-preloads">${preloads}</template><script>loader</script></body></html>`

describe("the worker's copy of the page with the first screen", () => {
  const entry = '<link rel="modulepreload" crossorigin href="/assets/index-1.js">'
  const home = '<link rel="modulepreload" crossorigin="" href="/assets/home-1.js">'

  it('names the scripts the page will run, entry first', () => {
    expect(scriptsOf(page(entry + home))).toEqual(['/assets/index-1.js', '/assets/home-1.js'])
  })

  it("is used only while this release's precache holds every script it names", () => {
    const precached = new Set(['/assets/index-1.js', '/assets/home-1.js'])
    expect(isUsable(page(entry + home), (url) => precached.has(url))).toBe(true)
    // After an update the old files are gone: the page would start nothing.
    expect(isUsable(page(entry + home), (url) => url !== '/assets/home-1.js')).toBe(false)
    // A page without the first screen (the file as built, another backend) is not kept.
    expect(isUsable('<html><body><div id="root"></div></body></html>', () => true)).toBe(false)
  })
})
