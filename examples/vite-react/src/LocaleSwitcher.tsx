import { useLocale, useSwitchLocale } from 'unplugin-tms/react'
import { getLocales, t } from 'unplugin-tms/runtime'

export function LocaleSwitcher() {
  const locale = useLocale()
  // The switch is a transition: while the new catalog loads, the page stays in the current locale.
  const [switchLocale, isPending] = useSwitchLocale()
  return (
    <label>
      {t('Language')}{' '}
      <select
        id="locale"
        value={locale}
        aria-busy={isPending}
        onChange={(event) => switchLocale(event.target.value)}
      >
        {getLocales().map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  )
}
