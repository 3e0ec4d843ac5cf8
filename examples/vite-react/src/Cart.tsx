import { t } from 'unplugin-tms/runtime'

export function Cart({ items }: { items: number }) {
  return (
    <section id="cart">
      <h2>{t('Your cart')}</h2>
      <p id="cart-count">
        {items === 0
          ? t('Your cart is empty')
          : t('{count, plural, one {# item in your cart} other {# items in your cart}}', { count: items })}
      </p>
      <button type="button">
        {t('Checkout', undefined, { variant: 'button', instruction: 'Button that starts payment' })}
      </button>
      <button type="button">{t('Cancel')}</button>
    </section>
  )
}
