import { rememberLocale, setLocale, setTimeZone } from 'unplugin-tms/runtime'

/**
 * Before Nuxt hydrates (it awaits its plugins first): the locale and the zone the server rendered the
 * page in, from `<html>`. Then the browser's zone goes into the `tz` cookie for the next page, and each
 * switch into the `lang` cookie.
 */
export default defineNuxtPlugin({
  name: 'tms-page-locale',
  order: -1000,
  async setup() {
    const root = document.documentElement
    setTimeZone(root.dataset.timeZone)
    await setLocale(root.lang)
    rememberLocale({ from: ['cookie'] })
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    // biome-ignore lint/suspicious/noDocumentCookie: one cookie, once per page load (the Cookie Store API is not in every browser)
    document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`
  },
})
