import { type NextRequest, NextResponse } from 'next/server'
import { negotiateRequestLocale } from 'unplugin-tms/runtime'
import { LOCALES } from './app/locales'

/**
 * A path without a locale (`/`, `/cart`) is redirected to the request's locale: the `lang` cookie when
 * it names one (the locale switch writes it), else the best of Accept-Language by q-value; a
 * pseudo-locale only when asked for by name. (Next 16 reads `proxy`; Next 15 reads `middleware` from
 * middleware.ts.)
 */
export function proxy(request: NextRequest): NextResponse | undefined {
  const { pathname } = request.nextUrl
  if (LOCALES.some((l) => pathname === `/${l}` || pathname.startsWith(`/${l}/`))) return undefined
  const locale = negotiateRequestLocale({
    acceptLanguage: request.headers.get('accept-language'),
    cookie: request.headers.get('cookie'),
    locales: LOCALES,
  })
  const url = request.nextUrl.clone()
  url.pathname = `/${locale}${pathname === '/' ? '' : pathname}`
  const response = NextResponse.redirect(url)
  response.headers.set('vary', 'accept-language, cookie')
  return response
}

export const config = { matcher: ['/((?!_next|favicon.ico).*)'] }
