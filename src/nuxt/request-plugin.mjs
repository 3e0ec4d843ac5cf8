// The Nuxt module's server plugin (src/nuxt/index.ts adds it first of all plugins): the request's
// locale and time zone for everything Nuxt renders of it. Plain JavaScript, shipped as is: Nuxt's Vite
// builds it with the app, where `unplugin-tms/runtime` is the build's server runtime.
import { enterLocale, getLocales, negotiateRequestLocale } from 'unplugin-tms/runtime'

/** The `dir` of a locale's pages: right-to-left for the RTL scripts' languages and the ar-XB pseudo-locale. */
const dirOf = (locale) => (/^(?:ar|he|fa|ur|ps|sd|ug|yi|dv|ckb)(?:-|$)/i.test(locale) ? 'rtl' : 'ltr')

/** A cookie's value from a `Cookie` header; none when absent or badly escaped (a cookie is input). */
function cookieOf(header, name) {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** `zone` when this runtime knows it, else undefined: an unknown zone in a cookie must not break the page. */
function knownZone(zone) {
  if (!zone) return undefined
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return zone
  } catch {
    return undefined
  }
}

/**
 * Nuxt's renderer gives no function to wrap in `runWithLocale`: `enterLocale` puts the rest of the
 * render (this plugin runs first) in the locale before anything awaits. The locale is the path's first
 * segment when it is one, else the `lang` cookie's, else Accept-Language's.
 */
export default async function tmsRequestLocale(nuxtApp) {
  const ssr = nuxtApp.ssrContext
  const headers = ssr.event.node?.req.headers ?? Object.fromEntries(ssr.event.headers)
  const segment = ssr.event.path.split(/[/?#]/)[1] ?? ''
  const locale = getLocales().includes(segment)
    ? segment
    : negotiateRequestLocale({ acceptLanguage: headers['accept-language'], cookie: headers.cookie })
  const settings = nuxtApp.$config.public.tms ?? {}
  // A prerendered page is every user's: no one's zone from a cookie (Nitro marks its requests).
  const prerendering = headers['x-nitro-prerender'] !== undefined
  const fromCookie =
    settings.timeZoneCookie && !prerendering
      ? knownZone(cookieOf(headers.cookie, settings.timeZoneCookie))
      : undefined
  const timeZone = fromCookie ?? settings.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone
  const loading = enterLocale(locale, { timeZone })
  // The client plugin hydrates in what `<html>` says.
  ssr.head.push({ htmlAttrs: { lang: locale, dir: dirOf(locale), 'data-time-zone': timeZone } })
  await loading
}
