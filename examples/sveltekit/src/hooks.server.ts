import type { Handle } from '@sveltejs/kit'
import { negotiateRequestLocale, runWithLocale } from 'unplugin-tms/runtime'
import { building } from '$app/environment'
import { DEFAULT_TIME_ZONE, dirOf, LOCALES, timeZoneOf } from '$lib/locales'

/**
 * Every request renders inside `runWithLocale`: its load functions and its components, across awaits,
 * in the locale of its URL segment (`/fr-FR/...`); `/` and other paths take the `lang` cookie, then
 * Accept-Language. Dates render in the user's zone (the `tz` cookie), the one the page then hydrates in.
 */
export const handle: Handle = ({ event, resolve }) => {
  const segment = event.url.pathname.split('/')[1] ?? ''
  // Prerendering has no request headers: the locale of the path and the default zone.
  const locale = LOCALES.includes(segment)
    ? segment
    : negotiateRequestLocale({
        acceptLanguage: building ? '' : event.request.headers.get('accept-language'),
        cookie: building ? '' : event.request.headers.get('cookie'),
      })
  const timeZone = building ? DEFAULT_TIME_ZONE : timeZoneOf(event.cookies.get('tz'))
  event.locals.locale = locale
  return runWithLocale(
    locale,
    () =>
      resolve(event, {
        transformPageChunk: ({ html }) =>
          html
            .replace('%tms.lang%', locale)
            .replace('%tms.dir%', dirOf(locale))
            .replace('%tms.timeZone%', timeZone),
      }),
    { timeZone },
  )
}
