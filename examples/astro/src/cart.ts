import { t } from 'unplugin-tms/runtime'

/** The cart's line, from a plain module: looked up when a page calls it, in that page's locale. */
export async function cartLine(): Promise<string> {
  // As a real data fetch would: the text after it is still in the page's locale.
  const count = await new Promise<number>((resolve) => setTimeout(() => resolve(3), 5))
  return t('You have {count} items in your cart', { count })
}
