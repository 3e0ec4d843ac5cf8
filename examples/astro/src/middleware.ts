import { defineMiddleware } from 'astro:middleware'
import { runWithLocale } from 'unplugin-tms/runtime'
import { LOCALES, TIME_ZONE } from './locales'

/**
 * Every page renders inside `runWithLocale` of its URL's locale: each `t` in its frontmatter and in the
 * modules it calls, across awaits, is in that locale while other pages render in theirs (the dev
 * server renders requests at once; a build may render pages at once with `build.concurrency`). Dates
 * are written in the site's zone, the one the islands hydrate in (astro.config.mjs).
 */
export const onRequest = defineMiddleware((context, next) => {
  const locale = context.params.locale
  if (locale === undefined || !LOCALES.includes(locale)) return next()
  return runWithLocale(locale, next, { timeZone: TIME_ZONE })
})
