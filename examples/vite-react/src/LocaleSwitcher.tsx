import { t } from 'unplugin-tms/runtime'

const LOCALES = ['en-US', 'fr-FR', 'de-DE', 'ja-JP', 'en-XA', 'ar-XB']

export function LocaleSwitcher({ locale, onChange }: { locale: string; onChange: (locale: string) => void }) {
  return (
    <label>
      {t('Language')}{' '}
      <select id="locale" value={locale} onChange={(event) => onChange(event.target.value)}>
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  )
}
