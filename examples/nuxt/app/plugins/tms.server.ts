import { getCookie, getHeader } from 'h3'
import { enterLocale, getLocales, negotiateRequestLocale } from 'unplugin-tms/runtime'

/**
 * The request's locale and zone for everything Nuxt renders of it. Nuxt's renderer gives no function to
 * wrap in `runWithLocale`, so this plugin runs first (`order`), and `enterLocale` puts the rest of the
 * render in the locale before anything awaits.
 */
export default defineNuxtPlugin({
  name: 'tms-request-locale',
  order: -1000,
  async setup(nuxtApp) {
    const event = nuxtApp.ssrContext!.event
    const segment = event.path.split(/[/?]/)[1] ?? ''
    const prerendering = import.meta.prerender
    const locale = getLocales().includes(segment)
      ? segment
      : negotiateRequestLocale({
          acceptLanguage: getHeader(event, 'accept-language'),
          cookie: getHeader(event, 'cookie'),
        })
    const timeZone = prerendering ? DEFAULT_TIME_ZONE : timeZoneOf(getCookie(event, 'tz'))
    const loading = enterLocale(locale, { timeZone })
    nuxtApp.ssrContext!.tmsLocale = locale
    useHead({ htmlAttrs: { lang: locale, dir: dirOf(locale), 'data-time-zone': timeZone } })
    await loading
  },
})
