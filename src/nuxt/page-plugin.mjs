// The Nuxt module's client plugin (src/nuxt/index.ts adds it first of all plugins). Plain JavaScript,
// shipped as is: Nuxt's Vite builds it with the app, where `unplugin-tms/runtime` is the build's runtime.
import { rememberLocale, setLocale, setTimeZone } from 'unplugin-tms/runtime'

/**
 * Before Nuxt hydrates (it awaits its plugins first): the locale and the zone the server rendered the
 * page in, from `<html>`, so hydration changes nothing. Then the browser's zone goes into the cookie
 * the server reads for the next page, and each switch (`setLocale`) into the `lang` cookie.
 */
export default async function tmsPageLocale(nuxtApp) {
  const root = document.documentElement
  setTimeZone(root.dataset.timeZone || undefined)
  await setLocale(root.lang)
  rememberLocale({ from: ['cookie'] })
  const cookie = nuxtApp.$config.public.tms?.timeZoneCookie
  if (!cookie) return
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, once per page load (the Cookie Store API is not in every browser)
  document.cookie = `${cookie}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`
}
