import { T } from 'unplugin-tms/react'
import { t } from 'unplugin-tms/runtime'

// Loaded with React.lazy when the reader opens #/help.
export default function Help() {
  return (
    <section id="help">
      <h2>{t('Help')}</h2>
      <p id="shipping">
        <T>
          Orders ship within <b>two days</b>. <a href="#/">Back to the store</a>
        </T>
      </p>
    </section>
  )
}
