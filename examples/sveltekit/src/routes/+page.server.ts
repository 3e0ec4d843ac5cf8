import { redirect } from '@sveltejs/kit'
import type { PageServerLoad } from './$types'

/** `/` goes to the locale the request asks for (hooks.server.ts chose it). */
export const load: PageServerLoad = ({ locals, setHeaders }) => {
  setHeaders({ vary: 'accept-language, cookie' })
  redirect(302, `/${locals.locale}`)
}
