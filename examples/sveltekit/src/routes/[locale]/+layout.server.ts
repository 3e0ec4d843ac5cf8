import { error } from '@sveltejs/kit'
import { LOCALES } from '$lib/locales'
import type { LayoutServerLoad } from './$types'

export const load: LayoutServerLoad = ({ params }) => {
  if (!LOCALES.includes(params.locale)) error(404, `no locale ${params.locale}`)
  return { locale: params.locale }
}
