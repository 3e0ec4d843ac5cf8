import { useState } from 'react'
import { t } from 'unplugin-tms/runtime'

/** An island hydrated at once (`client:load`): a plural that a click changes. */
export default function CartCount({ count }: { count: number }) {
  const [items, setItems] = useState(count)
  return (
    <section id="cart-count">
      <p id="count">
        {t('{count, plural, one {# item in your cart} other {# items in your cart}}', { count: items })}
      </p>
      <button id="add" type="button" onClick={() => setItems(items + 1)}>
        {t('Add an item')}
      </button>
    </section>
  )
}
