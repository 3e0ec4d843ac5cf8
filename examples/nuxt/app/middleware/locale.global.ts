import { getLocale, getLocales, setLocale } from 'unplugin-tms/runtime'

/** A switch is a link to another locale's page: the catalog loads before the page renders. */
export default defineNuxtRouteMiddleware(async (to) => {
  const next = String(to.params.locale ?? '')
  if (!getLocales().includes(next)) {
    if (to.path === '/') return
    throw createError({ statusCode: 404, statusMessage: `no locale ${next}` })
  }
  if (import.meta.server || next === getLocale()) return
  await setLocale(next)
  document.documentElement.lang = next
  document.documentElement.dir = dirOf(next)
})
