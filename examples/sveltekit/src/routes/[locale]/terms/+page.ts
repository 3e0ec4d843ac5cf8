import { LOCALES } from '$lib/locales'
import type { EntryGenerator } from './$types'

// Written once per locale at build time (build/prerendered/<locale>/terms.html): static in every locale.
export const prerender = true
export const entries: EntryGenerator = () => LOCALES.map((locale) => ({ locale }))
