import { t } from 'unplugin-tms/runtime'

export function Cart({ items }: { items: number }) {
  return (
    <section>
      <h2>{t('Your cart')}</h2>
      <p id="cart-count">
        {items === 0 ? t('Your cart is empty') : t('You have {count} items in your cart', { count: items })}
      </p>
      <button type="button">
        {t('Checkout', undefined, { variant: 'button', instruction: 'Button that starts payment' })}
      </button>
      <button type="button">{t('Cancel')}</button>
    </section>
  )
}
