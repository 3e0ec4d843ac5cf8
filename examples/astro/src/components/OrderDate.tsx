import { t } from 'unplugin-tms/runtime'

/**
 * An island hydrated once visible (`client:visible`): a date and a time, which the server and the
 * browser format alike only in the same zone (src/locales.ts's TIME_ZONE on both sides).
 */
export default function OrderDate({ placedAt }: { placedAt: string }) {
  return (
    <section id="order">
      <h2 id="delivery">{t('Delivery and returns')}</h2>
      <p id="ordered">
        {t('Ordered on {when, date, long} at {when, time, short}', { when: new Date(placedAt) })}
      </p>
    </section>
  )
}
