import { ORDERED_AT } from '$lib/locales'
import type { PageServerLoad } from './$types'

/** Rendered per request: the server loads the order's date, the page formats it in the request's zone. */
export const load: PageServerLoad = () => ({ orderedAt: ORDERED_AT, items: 3 })
