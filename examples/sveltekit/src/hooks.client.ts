import { rememberLocale, setLocale, setTimeZone } from 'unplugin-tms/runtime'

/**
 * Before SvelteKit hydrates: the locale and the zone the server rendered the page in, from `<html>`,
 * so the first client render is the server's text. Then the browser's zone goes into the `tz` cookie,
 * for the server to render the next page in it, and each locale switch into the `lang` cookie.
 */
export async function init(): Promise<void> {
  const root = document.documentElement
  setTimeZone(root.dataset.timeZone)
  await setLocale(root.lang)
  rememberLocale({ from: ['cookie'] })
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, once per page load (the Cookie Store API is not in every browser)
  document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`
}
