import { t } from 'unplugin-tms/runtime'

export function cartLine(items) {
  return items === 0 ? t('Your cart is empty') : t('You have {count} items in your cart', { count: items })
}
